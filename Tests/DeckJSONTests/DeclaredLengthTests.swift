import DeckCore
import DeckIO
import Foundation
import Testing

@testable import DeckJSON

/// The syntax pass takes a media string's length from the `size` its entry declares and leaves
/// the text unread; the second thread checks it. Whatever the text holds, the model and the
/// first problem must be those of reading every byte.
@Suite("JSON deck format: media strings taken at their declared length")
struct DeclaredLengthTests {
  static let long = JSONErrorTests.long
  static let sha1 = JSONErrorTests.longSHA1

  /// A deck document whose one media entry declares `size` and holds `data` (the text between
  /// the quotes, as it stands in the file).
  static func document(size: Int, data: String, extra: String = "") -> String {
    "{\(JSONErrorTests.valid), \(JSONErrorTests.basic), \"notes\": [], \"media\": [{\"name\": \"a.bin\", \"sha1\": \"\(sha1)\", \"size\": \(size), \"data\": \"\(data)\"\(extra)}]}"
  }

  /// Reads `json` taking declared lengths or not; the error with its place, the path left out.
  static func read(_ json: String, declared: Bool, deferring: Bool = false) -> String {
    do {
      let scratch = try TemporaryDirectory()
      let path = scratch.path(for: "deck.json")
      try Data(json.utf8).write(to: URL(fileURLWithPath: path))
      var reader = DeckJSONReader()
      reader.takesDeclaredLengths = declared
      reader.defersMediaChecks = deferring
      let collection = try reader.read(path: path).collection
      if deferring { try collection.checkPendingMedia() }
      return String(describing: collection.media.map { ($0.name, try? $0.blob.sha1Hex(), try? $0.blob.size()) })
    } catch let error as DeckError {
      var relative = error
      relative.location.file = ""
      return "error: \(relative)"
    } catch {
      return "error: \(error)"
    }
  }

  static func expectSame(_ json: String, _ comment: Comment) {
    for deferring in [false, true] {
      let taken = read(json, declared: true, deferring: deferring)
      let unread = read(json, declared: false, deferring: deferring)
      #expect(taken == unread, "\(comment) (deferring: \(deferring))")
    }
  }

  /// Base64 text of `count` bytes of "ABC…" (padded).
  static func base64(bytes count: Int) -> String {
    Data(String(repeating: "ABC", count: count / 3 + 1).utf8.prefix(count)).base64EncodedString()
  }

  @Test("the pass sets aside the same strings, unread, and the reads agree")
  func sameStrings() throws {
    let json = Self.document(size: 6000, data: Self.long)
    let bytes = Array(json.utf8)
    let (taken, unread) = try bytes.withUnsafeBytes { buffer in
      (
        try JSONSyntaxPass(bytes: buffer, location: SourceLocation(file: "t"), takingDeclaredLengths: true).setAside,
        try JSONSyntaxPass(bytes: buffer, location: SourceLocation(file: "t")).setAside
      )
    }
    #expect(taken.map(\.lengthDeclared) == [true])
    #expect(taken.map { [$0.offset, $0.length] } == unread.map { [$0.offset, $0.length] })
    Self.expectSame(json, "good")
    #expect(Self.read(json, declared: true).contains(Self.sha1))
  }

  /// Documents whose declared size leads the pass to a quote that does not end the string it
  /// would have read, or whose string holds what is not plain text.
  static let cases: [(String, String)] = {
    let text = base64(bytes: 6000)
    // A quote, a key and another string: the declared size reaches the end of the second string.
    // 8,000 + 13 + 4,403 characters: a whole number of base64 quads, so the size reaches its quote.
    let second = String(repeating: "QUJD", count: 1100) + "QUJ"
    let joined = text + "\", \"extra\": \"" + second
    let joinedSize = (joined.utf8.count / 4) * 3
    var cases: [(String, String)] = [
      ("a size that reaches past the string to another's end", document(size: joinedSize, data: joined)),
      ("a size too large, no quote where it ends", document(size: 6100, data: text)),
      ("a size too small", document(size: 5000, data: text)),
    ]
    for (name, inner) in [
      ("an escape", "\\/"), ("a line feed", "\n"), ("a control character", "\u{1}"), ("text other than ASCII", "é"),
      ("a space (plain, but not base64)", " "),
    ] {
      var characters = Array(text)
      // As many characters replaced as the inner text has bytes: the text keeps its length.
      characters.replaceSubrange(4000..<(4000 + inner.utf8.count), with: inner)
      let data = String(characters)
      cases.append(("\(name) in the string", document(size: data.utf8.count / 4 * 3, data: data)))
    }
    return cases
  }()

  @Test("a string the pass would have read otherwise is read as it would", arguments: cases.indices)
  func otherwise(number: Int) {
    let (name, json) = Self.cases[number]
    Self.expectSame(json, "\(name)")
  }
}
