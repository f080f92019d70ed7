import DeckCore

/// Field text not in Unicode NFC, which Anki's import of a deck package composes (`e` + U+0301
/// becomes `é`; checked with the real backend, anki 26.9.3, for both package generations),
/// composed before an `.apkg` is written, with one `field-changed` warning. Restoring a
/// `.colpkg` keeps the text as it is, so a collection package is written as it is.
///
/// The package holds what Anki will keep, so that it reads the same in Anki and in any other
/// reader (a decomposed letter looks the same, but is other bytes to a search or a comparison).
enum ImportComposedText {
  /// `notes` with every field of the notes at `indices` (in order; the others are in NFC) in
  /// NFC; one warning, at the first note changed, counts the notes and names the first ones.
  static func composed(
    _ notes: [Note], among indices: [Int], location: SourceLocation, log: inout DiagnosticLog
  ) -> [Note] {
    var result = notes
    var changed: [Int64] = []
    for index in indices {
      var changes = false
      for fieldIndex in notes[index].fields.indices {
        let field = notes[index].fields[fieldIndex]
        // Text of characters below U+0300 is NFC; only other text is composed and compared.
        guard field.mayChangeInNFC else { continue }
        let composed = field.canonicallyComposed
        guard !composed.unicodeScalars.elementsEqual(field.unicodeScalars) else { continue }
        result[index].fields[fieldIndex] = composed
        changes = true
      }
      if changes { changed.append(notes[index].id) }
    }
    guard let first = changed.first else { return notes }
    let count = changed.count
    log.report(
      .fieldChanged, at: location.item("note \(first)"),
      "\(CountedNoun.phrase(count, "note")) (\(count == 1 ? "note" : "notes") \(ShortList.text(changed.map { "\($0)" }))) \(count == 1 ? "holds" : "hold") text not in Unicode NFC (a letter and its accent as two characters), which Anki's import of a deck package composes; \(count == 1 ? "it is" : "they are") written composed, which looks the same (a .colpkg keeps the text as it is)"
    )
    return result
  }
}
