import DeckAnki
import DeckCore

/// What a CSV written as plain text (``CSVOptions/isHTML`` false, Anki's export without "Include
/// HTML and media references") loses, as warnings naming the notes: a field that Anki's importer
/// would not bring back as it was (formatting, line breaks, media references, characters written
/// as references), and a first field left empty, which Anki's importer skips.
enum CSVPlainTextLosses {
  /// The warnings for writing `notes` to the file `location` names; `plainText` is how a field
  /// is written.
  static func warnings(
    for notes: some Collection<Note>, plainText: (String) -> String, location: SourceLocation
  ) -> [Diagnostic] {
    var changed: [String] = []
    var lostMedia: [String] = []
    var emptiedFirst: [String] = []
    for note in notes {
      var changes = false
      for (index, field) in note.fields.enumerated() where mayChange(field) {
        let written = plainText(field)
        // Anki's importer of a plain-text file escapes it: the field comes back showing the
        // written text, the same as before only when that is its text with character references
        // read (`it's` comes back as `it&#x27;s`, which shows the same; a reference the export
        // left as it was, `&#x27;`, comes back showing as those characters).
        if HTMLEntities.decode(field) != written { changes = true }
        if index == 0, written.isEmpty, !field.isEmpty { emptiedFirst.append(note.guid) }
      }
      guard changes else { continue }
      changed.append(note.guid)
      if !note.referencedMediaNames.isEmpty { lostMedia.append(note.guid) }
    }
    var warnings: [Diagnostic] = []
    // A field without markup, a reference, a bracket or a line break is written as it is.
    func mayChange(_ field: String) -> Bool {
      field.utf8.contains { [UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "["), 0x0A, 0x0D].contains($0) }
    }
    if !changed.isEmpty {
      let media =
        lostMedia.isEmpty
        ? ""
        : "; \(lostMedia.count == changed.count && changed.count > 1 ? "all" : "\(lostMedia.count)") of them \(lostMedia.count == 1 ? "loses" : "lose") media references too (\(CountedNoun.noun("GUID", for: lostMedia.count)) \(ShortList.quoted(lostMedia)))"
      warnings.append(
        Diagnostic(
          .csvPlainText, at: location,
          "written as plain text (html false), as Anki's own export without HTML writes it, \(CountedNoun.phrase(changed.count, "note")) \(changed.count == 1 ? "loses" : "lose") what only HTML holds (formatting, line breaks, characters written as references) (\(CountedNoun.noun("GUID", for: changed.count)) \(ShortList.quoted(changed)))\(media); importing the file into a collection that holds \(changed.count == 1 ? "this note" : "these notes") replaces \(changed.count == 1 ? "its" : "their") fields with the plain text"
        ))
    }
    if !emptiedFirst.isEmpty {
      warnings.append(
        Diagnostic(
          .csvEmptyFirstField, at: location,
          "\(CountedNoun.phrase(emptiedFirst.count, "note")) \(emptiedFirst.count == 1 ? "has" : "have") a first field that plain text leaves empty (a picture or a sound alone); Anki's CSV importer skips such rows (\(CountedNoun.noun("GUID", for: emptiedFirst.count)) \(ShortList.quoted(emptiedFirst)))"
        ))
    }
    return warnings
  }
}
