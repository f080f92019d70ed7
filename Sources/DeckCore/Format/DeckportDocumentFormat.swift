import Foundation
import JSONCore

/// The `format` value that names deckport's own JSON documents, kept here so that every module
/// telling one apart (the JSON deck reader, and app storage, which must not read a deck as
/// records) spells it the same way.
package enum DeckportDocumentFormat {
  /// A JSON deck document (`{"format": "deckport-deck", …}`).
  package static let deck = "deckport-deck"

  /// How many bytes of a file ``namesDeck(path:lookAhead:)`` looks through for the `format`
  /// member: 16 MiB.
  package static let lookAhead = 16 << 20

  /// Whether the file at `path` is a JSON object whose first top-level `format` member, within
  /// its first `lookAhead` bytes, is `"format": "deckport-deck"` (after a byte order mark, with any
  /// JSON white space between, its key and value possibly written with escapes), told without
  /// a parse of the whole file: the members are read as a stream, a chunk at a time, and the
  /// values before `format` are skipped, not parsed (a document written with its keys sorted has
  /// `cards` and `decks` first). A CSV row that merely quotes those words
  /// (`"{""format"": ""deckport-deck""}"`), an array of records, or an object whose nested value
  /// holds such a member does not name it; a document that names its format only past
  /// `lookAhead` is told apart only by its extension or `--from`.
  package static func namesDeck(path: String, lookAhead: Int = lookAhead) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    var stream = ByteStream(handle: handle, limit: lookAhead)
    if stream.peek() == 0xEF {
      for byte: UInt8 in [0xEF, 0xBB, 0xBF] where stream.next() != byte { return false }
    }
    stream.skipWhiteSpace()
    guard stream.next() == UInt8(ascii: "{") else { return false }
    while true {
      stream.skipWhiteSpace()
      // A key too long to be `format` (a deck's unknown key, say) is passed over like any other.
      guard stream.next() == UInt8(ascii: "\""), case .ended(let key) = stream.string(keepingAtMost: 64) else {
        return false
      }
      stream.skipWhiteSpace()
      guard stream.next() == UInt8(ascii: ":") else { return false }
      stream.skipWhiteSpace()
      if key == "format" {
        guard stream.next() == UInt8(ascii: "\""), case .ended(let value) = stream.string(keepingAtMost: 64) else {
          return false
        }
        return value == deck
      }
      guard stream.skipValue() else { return false }
      stream.skipWhiteSpace()
      guard stream.next() == UInt8(ascii: ",") else { return false }
    }
  }

  /// A file's bytes read a chunk at a time, up to a limit.
  private struct ByteStream {
    let handle: FileHandle
    /// How many bytes may be read in all.
    let limit: Int
    private var chunk = Data()
    private var index = 0
    private var consumed = 0

    init(handle: FileHandle, limit: Int) {
      self.handle = handle
      self.limit = limit
    }

    /// The next byte, without taking it; nil at the end of the file or the limit.
    mutating func peek() -> UInt8? {
      if index == chunk.count {
        let left = limit - consumed
        guard left > 0, let read = try? handle.read(upToCount: min(1 << 16, left)), !read.isEmpty else { return nil }
        chunk = read
        index = 0
      }
      return chunk[chunk.startIndex + index]
    }

    /// The next byte, taken; nil at the end of the file or the limit.
    mutating func next() -> UInt8? {
      guard let byte = peek() else { return nil }
      index += 1
      consumed += 1
      return byte
    }

    mutating func skipWhiteSpace() {
      while let byte = peek(), JSONFileHead.whiteSpace.contains(byte) { _ = next() }
    }

    /// A string taken by ``string(keepingAtMost:)``.
    enum TakenString {
      /// It ended within the limit: its text, decoded, when that is at most the bytes asked for
      /// and decodes; nil for a longer string (taken whole all the same) or one that does not
      /// decode.
      case ended(String?)
      /// It does not end within the limit.
      case unended
    }

    /// The rest of a string whose opening quote was taken.
    mutating func string(keepingAtMost maximum: Int) -> TakenString {
      var text: [UInt8] = [UInt8(ascii: "\"")]
      var escaped = false
      var kept = true
      while let byte = next() {
        if byte == UInt8(ascii: "\""), !escaped {
          guard kept else { return .ended(nil) }
          text.append(byte)
          return .ended((try? JSONParser.parse(text))?.string)
        }
        escaped = byte == UInt8(ascii: "\\") && !escaped
        if kept {
          text.append(byte)
          kept = text.count <= maximum + 1
        }
      }
      return .unended
    }

    /// Takes one JSON value without reading it (strings, arrays and objects to their end, other
    /// values to the byte that ends them); false when it does not end within the limit.
    mutating func skipValue() -> Bool {
      var depth = 0
      while let byte = peek() {
        switch byte {
        case UInt8(ascii: "\""):
          _ = next()
          guard skipString() else { return false }
          if depth == 0 { return true }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          _ = next()
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if depth == 0 { return true }
          _ = next()
          depth -= 1
          if depth == 0 { return true }
        case UInt8(ascii: ","):
          if depth == 0 { return true }
          _ = next()
        default:
          if depth == 0 && JSONFileHead.whiteSpace.contains(byte) { return true }
          _ = next()
        }
      }
      return false
    }

    /// Takes the rest of a string whose opening quote was taken; false when it does not end
    /// within the limit.
    private mutating func skipString() -> Bool {
      var escaped = false
      while let byte = next() {
        if byte == UInt8(ascii: "\""), !escaped { return true }
        escaped = byte == UInt8(ascii: "\\") && !escaped
      }
      return false
    }
  }
}
