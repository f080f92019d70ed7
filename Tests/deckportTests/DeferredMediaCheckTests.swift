import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// A conversion from a JSON deck leaves the check of each media file against its declared SHA-1
/// and size to the one read of its bytes, the writer's (``MediaBlob/init(source:checkedOnRead:)``),
/// and checks the files no writer read before anything is kept. Whatever the output, and whether
/// or not the output carries the file, a file that fails its check fails the conversion with the
/// message the reader gives, and leaves no output behind.
@Suite("Converting a JSON deck: media checked by the one read of their bytes, before anything is kept")
struct DeferredMediaCheckTests {
  /// Base64 long enough to be left in the file (6,000 bytes of "ABC").
  static let long = String(repeating: "QUJD", count: 2000)
  /// The SHA-1 of those 6,000 bytes, computed by Python's hashlib (not by deckport).
  static let longSHA1 = "e573cd66cbaf226142741de628e4ef8c7a098e04"

  /// A deck whose one media file `a.bin` has the entry's other members `media` (and the data
  /// `data`); its note refers to the file when `referenced`.
  static func document(media: String, data: String = long, referenced: Bool, moreMedia: String = "") -> String {
    let front = referenced ? #"<img src=\"a.bin\">"# : "no picture"
    return """
      {"format": "deckport-deck", "version": 1,
       "noteTypes": [{"name": "Basic", "fields": [{"name": "Front"}, {"name": "Back"}],
                      "templates": [{"name": "Card 1", "question": "{{Front}}"}]}],
       "notes": [{"noteType": "Basic", "fields": {"Front": "\(front)", "Back": "b"}}],
       "media": [{"name": "a.bin", \(media) "data": "\(data)"}\(moreMedia)]}
      """
  }

  /// One way a file can fail its check, and the reader's message for it.
  struct Damage: Sendable, CustomTestStringConvertible {
    var id: String
    var media: String
    var data: String = DeferredMediaCheckTests.long
    var message: String
    var testDescription: String { id }
  }

  static let damages = [
    Damage(
      id: "SHA-1", media: #""sha1": "0000000000000000000000000000000000000000","#,
      message:
        ": at media[0].data: the SHA-1 of 'a.bin' is \(longSHA1), but its sha1 says 0000000000000000000000000000000000000000"
    ),
    Damage(
      id: "size", media: #""size": 5,"#, message: ": at media[0].data: 'a.bin' has 6000 bytes, but its size says 5"),
    Damage(
      id: "base64", media: "", data: long + "@@@@" + long, message: ": at media[0].data: not valid base64"),
  ]

  /// Outputs written from a temporary file (every deck format), read by the writer or not.
  static let outputs = ["out.apkg", "out.colpkg", "out.csv", "out.json", "out-crowdanki", "out-dir"]

  static func format(of output: String) -> FormatName? {
    switch output {
    case "out-crowdanki": "crowdanki"
    case "out-dir": "json-dir"
    case "out.colpkg": "colpkg-modern"
    default: nil
    }
  }

  @Test(
    "a file that fails its check fails the conversion, whether or not the output carries it",
    arguments: damages, outputs)
  func damagedFileFails(damage: Damage, output: String) throws {
    for referenced in [true, false] {
      let scratch = try TemporaryDirectory()
      let input = scratch.path(for: "deck.json")
      try Data(Self.document(media: damage.media, data: damage.data, referenced: referenced).utf8)
        .write(to: URL(fileURLWithPath: input))
      let outputPath = scratch.path(for: output)
      let error = try #require(throws: DeckError.self, "referenced: \(referenced)") {
        try DeckConverter().convert(
          input: input, output: outputPath, options: ConversionOptions(to: Self.format(of: output)))
      }
      #expect(error.description == input + damage.message, "referenced: \(referenced)")
      #expect(error.kind == .corrupt)
      // Nothing is left: no output, no temporary file beside it.
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["deck.json"])
    }
  }

  @Test("the command: one error line naming the JSON path, exit 1, no output, the input unchanged", arguments: damages)
  func commandFails(damage: Damage) throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "deck.json")
    let document = Data(Self.document(media: damage.media, data: damage.data, referenced: true).utf8)
    try document.write(to: URL(fileURLWithPath: input))
    let run = try CommandRun.deckport(["convert", input, scratch.path(for: "out.apkg")])
    #expect(run.status == 1, "stderr: \(run.standardError)")
    #expect(run.standardError == "deckport: error: \(input)\(damage.message)\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["deck.json"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == document)
  }

  @Test("a file that fails its check changes no app storage", arguments: damages)
  func damagedFileChangesNoAppStorage(damage: Damage) throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "deck.json")
    try Data(Self.document(media: damage.media, data: damage.data, referenced: true).utf8)
      .write(to: URL(fileURLWithPath: input))
    let output = scratch.path(for: "Cards.plist")
    let error = try #require(throws: DeckError.self) {
      try DeckConverter().convert(input: input, output: output, options: ConversionOptions(to: "plist"))
    }
    #expect(error.description == input + damage.message)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["deck.json"])
  }

  @Test("files that match their declarations convert, and what is written is the declared bytes", arguments: outputs)
  func goodFilesConvert(output: String) throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "deck.json")
    try Data(
      Self.document(media: #""sha1": "\#(Self.longSHA1)", "size": 6000,"#, referenced: true).utf8
    ).write(to: URL(fileURLWithPath: input))
    let outputPath = scratch.path(for: output)
    _ = try DeckConverter().convert(
      input: input, output: outputPath, options: ConversionOptions(to: Self.format(of: output)))
    guard output != "out.csv" else { return }
    let back = try DeckLoader().load(path: outputPath)
    let file = try #require(back.collection.media.first)
    #expect(try file.blob.data() == Data(String(repeating: "ABC", count: 2000).utf8))
  }

  /// Reading the document on its own (`inspect`, a library's `DeckLoader`) still checks every
  /// file while reading, in document order; a conversion reports a later bad name first, since
  /// the file's bytes are checked when the writer reads them.
  @Test("a conversion reports a bad name before a file that fails its check")
  func nameBeforeData() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "deck.json")
    let json = Self.document(
      media: #""size": 1,"#, referenced: true, moreMedia: #", {"name": "../b", "data": "\#(Self.long)"}"#)
    try Data(json.utf8).write(to: URL(fileURLWithPath: input))
    let loaded = try #require(throws: DeckError.self) { try DeckLoader().load(path: input) }
    #expect(loaded.description == input + ": at media[0].data: 'a.bin' has 6000 bytes, but its size says 1")
    let converted = try #require(throws: DeckError.self) {
      try DeckConverter().convert(input: input, output: scratch.path(for: "out.apkg"))
    }
    #expect(converted.description.hasPrefix(input + ": at media[1].name: "))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["deck.json"])
  }
}
