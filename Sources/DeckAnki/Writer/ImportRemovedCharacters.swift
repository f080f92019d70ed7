import DeckCore

/// The control characters Anki's import of a deck package removes from note fields, taken out
/// before an `.apkg` is written, with one `field-changed` warning.
///
/// Checked with the real backend (anki 26.9.3, `Tests/anki/test_field_control_characters.py`):
/// importing an `.apkg` of either generation removes from every field the ASCII control
/// characters U+0001–U+001F except tab (U+0009) and line feed (U+000A), and DEL (U+007F); a
/// carriage return goes too, so `\r\n` becomes `\n`. U+0080–U+009F are kept. Restoring a
/// `.colpkg` keeps them all, so a collection package is written as it is. (U+0000 and U+001F
/// are removed for every package, with warnings of their own, by ``CollectionValidation``.)
///
/// The package holds what Anki will keep, so that it reads the same in Anki and in any other
/// reader, and the warning says what went (`--strict` turns it into a failure).
enum ImportRemovedCharacters {
  /// Whether Anki's package import removes `byte`, a UTF-8 byte: every ASCII control
  /// character but tab and line feed, and DEL. (A byte below 0x80 is always a whole character.)
  static func isRemoved(_ byte: UInt8) -> Bool {
    (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F
  }

  /// `notes` with the characters Anki's package import removes taken out of every field of the
  /// notes at `indices` (in order; the others hold none); one warning, at the first note
  /// changed, counts the notes and each character removed and names the first notes.
  static func removed(
    from notes: [Note], among indices: [Int], location: SourceLocation, log: inout DiagnosticLog
  ) -> [Note] {
    var changedIndices: [Int] = []
    for index in indices where notes[index].fields.contains(where: holdsRemoved) {
      changedIndices.append(index)
    }
    guard let firstIndex = changedIndices.first else { return notes }
    var result = notes
    var counts: [UInt8: Int] = [:]
    for index in changedIndices {
      for fieldIndex in result[index].fields.indices where holdsRemoved(result[index].fields[fieldIndex]) {
        let bytes = result[index].fields[fieldIndex].utf8
        for byte in bytes where isRemoved(byte) { counts[byte, default: 0] += 1 }
        result[index].fields[fieldIndex] = String(decoding: bytes.filter { !isRemoved($0) }, as: UTF8.self)
      }
    }
    let characters = counts.sorted { $0.key < $1.key }.map { byte, count in
      "\(name(of: byte)) ×\(count)"
    }
    let named = ShortList.text(changedIndices.map { "\(notes[$0].id)" })
    let count = changedIndices.count
    log.report(
      .fieldChanged, at: location.item("note \(notes[firstIndex].id)"),
      "\(CountedNoun.phrase(count, "note")) (\(count == 1 ? "note" : "notes") \(named)) \(count == 1 ? "holds" : "hold") control characters that Anki's import of a deck package removes from fields (\(characters.joined(separator: ", "))); \(count == 1 ? "it is" : "they are") written without them (a .colpkg keeps them)"
    )
    return result
  }

  /// Whether `field` holds a character Anki's package import removes; one vector pass over
  /// its bytes (``TextBytes``), as every field of every note is checked.
  private static func holdsRemoved(_ field: String) -> Bool {
    TextBytes(of: field).contains(.removedControl)
  }

  /// How the warning names a removed character: its code point, and a name for the usual ones.
  private static func name(of byte: UInt8) -> String {
    let hex = String(byte, radix: 16, uppercase: true)
    let code = "U+00" + (hex.count == 1 ? "0" : "") + hex
    switch byte {
    case 0x0D: return "\(code) carriage return"
    case 0x0B: return "\(code) vertical tab"
    case 0x0C: return "\(code) form feed"
    case 0x1B: return "\(code) escape"
    case 0x7F: return "\(code) delete"
    default: return code
    }
  }
}
