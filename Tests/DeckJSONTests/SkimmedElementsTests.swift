import CVectorText
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import JSONCore
import Testing

@testable import DeckJSON

/// Past its budget the syntax pass only finds where each element ends, by its structure, and
/// leaves its check to its decoding. Whatever the elements hold, the model and the first
/// problem must be those of the pass checking every element, and of decoding the document whole.
@Suite("JSON deck format: elements passed over past the pass's budget")
struct SkimmedElementsTests {
  /// Counts how many times a reader read the document (started checking its JSON).
  final class ReadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var checking = false
    private var count = 0

    func record(_ progress: [ConversionProgress]) {
      lock.lock()
      defer { lock.unlock() }
      let now = progress.contains { $0.phase == .checkingJSON }
      if now && !checking { count += 1 }
      checking = now
    }

    var reads: Int {
      lock.lock()
      defer { lock.unlock() }
      return count
    }
  }

  @Test("the structural end of valid values is where they end")
  func structuralEndOfValidValues() {
    let values = [
      #"{"a": [1, {"b": "}"}], "c": "\"]\\"}"#, #"[]"#, #"{}"#, #""text with \" and \\""#, #""é ü""#, "123.5e-3",
      "true", "null", #"[[[["x"]]], {"y": {"z": []}}]"#, #"{"k":"v"}"#,
    ]
    for value in values {
      for tail in ["", ", 1", "]", "}", " ", "\n"] {
        let bytes = Array((value + tail).utf8)
        let end = bytes.withUnsafeBytes { JSONBytes.structuralEnd($0, from: 0, acceptingEscapes: true) }
        #expect(end == value.utf8.count, "\(value) then \(tail)")
      }
    }
    // From an offset inside a document.
    let document = Array(#"{"list": [{"a": 1}, {"b": "x"}]}"#.utf8)
    let second = document.withUnsafeBytes { JSONBytes.structuralEnd($0, from: 20, acceptingEscapes: true) }
    #expect(second == 30)
  }

  @Test("no structural end where the bytes end first or nothing starts, nor at an escape unless accepted")
  func structuralEndRefused() {
    for text in [#"{"a": [1, 2"#, #""unterminated"#, #"{"a": "b\"#, ",", "]", "}", ":", #"{"a": "\""#, ""] {
      let bytes = Array(text.utf8)
      #expect(bytes.withUnsafeBytes { JSONBytes.structuralEnd($0, from: 0, acceptingEscapes: true) } == nil, "\(text)")
    }
    let escaped = Array(#"{"a": "b\"c"}"#.utf8)
    #expect(escaped.withUnsafeBytes { JSONBytes.structuralEnd($0, from: 0, acceptingEscapes: false) } == nil)
    #expect(escaped.withUnsafeBytes { JSONBytes.structuralEnd($0, from: 0, acceptingEscapes: true) } == escaped.count)
    let empty: [UInt8] = []
    #expect(empty.withUnsafeBytes { JSONBytes.structuralEnd($0, from: 0, acceptingEscapes: true) } == nil)
    #expect(escaped.withUnsafeBytes { JSONBytes.structuralEnd($0, from: -1, acceptingEscapes: true) } == nil)
  }

  /// Where the value at `start` ends by its structure, written plainly (a byte at a time, as
  /// the element decoder once skipped values): what the C walk must agree with.
  static func referenceEnd(_ bytes: [UInt8], from start: Int, acceptingEscapes: Bool) -> Int? {
    func endsScalar(_ byte: UInt8) -> Bool { ",}]:\"{[ \t\n\r".utf8.contains(byte) }
    var index = start
    var depth = 0
    repeat {
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index += 1
        while true {
          guard index < bytes.count else { return nil }
          if bytes[index] == UInt8(ascii: "\"") { break }
          if bytes[index] == UInt8(ascii: "\\") {
            guard acceptingEscapes else { return nil }
            index += 1
          }
          index += 1
        }
        index += 1
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard depth > 0 else { return nil }
        depth -= 1
        index += 1
      case UInt8(ascii: ","), UInt8(ascii: ":"):
        guard depth > 0 else { return nil }
        index += 1
      default:
        index += 1
        while index < bytes.count, !endsScalar(bytes[index]) { index += 1 }
      }
    } while depth > 0
    return index
  }

  @Test("the structural end, 32 bytes at a time or a byte at a time, is the plain walk's, for any bytes")
  func structuralEndAgrees() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("\"\\{}[],: a1\n".utf8) + [0xC3, 0xA9]
    for round in 0..<20_000 {
      let count = Int.random(in: 0...(round % 10 == 0 ? 400 : 90), using: &generator)
      // Mostly well-formed-looking text: a random object or array start, then random bytes.
      var bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
      if !bytes.isEmpty && round % 2 == 0 { bytes[0] = UInt8(ascii: round % 4 == 0 ? "{" : "[") }
      let start = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator) / 4
      for accepting in [true, false] {
        let expected = Self.referenceEnd(bytes, from: start, acceptingEscapes: accepting)
        let (vector, bytewise) = bytes.withUnsafeBytes { buffer in
          (
            JSONBytes.structuralEnd(buffer, from: start, acceptingEscapes: accepting),
            buffer.baseAddress.map {
              deckport_json_structural_end_bytewise(
                $0.assumingMemoryBound(to: UInt8.self), start, buffer.count, accepting ? 1 : 0)
            }
          )
        }
        let bytewiseEnd = bytewise.flatMap { $0 < 0 ? nil : Int($0) }
        #expect(vector == expected, "\(bytes) from \(start), escapes \(accepting)")
        #expect(bytewiseEnd == (bytes.isEmpty ? nil : expected), "\(bytes) from \(start), escapes \(accepting)")
      }
    }
  }

  @Test("the pass passes over what it is allowed to, so a problem there is not its to find")
  func passPassesOver() throws {
    let text = #"{"notes": [{"id": 01}, {"id": 2}], "after": 1}"#
    let bytes = Array(text.utf8)
    try bytes.withUnsafeBytes { buffer in
      let location = SourceLocation(file: "t")
      #expect(throws: DeckError.self) { try JSONSyntaxPass(bytes: buffer, location: location, splitting: ["notes"]) }
      let pass = try JSONSyntaxPass(
        bytes: buffer, location: location, splitting: ["notes"], skimmingElement: { _ in true })
      let notes = try #require(pass.elements["notes"])
      #expect(notes.count == 2)
      #expect(notes.range(0) == 11..<21 && notes.range(1) == 23..<32)
    }
  }

  @Test(
    "a writer-made deck past the budget is read once, and the same as checking every element", arguments: [0, 60_000])
  func writerMadeDeck(budgetBytes: Int) throws {
    let scratch = try TemporaryDirectory()
    let path = try SecondHalfDecodingTests.document(copies: 200, in: scratch)
    let counter = ReadCounter()
    let reporter = ProgressReporter(minimumInterval: 0) { counter.record($0) }
    let skimmed = SecondHalfDecodingTests.read(path, budgetBytes: budgetBytes, progress: reporter)
    #expect(counter.reads == 1, "no shortcut failed")
    let checked = SecondHalfDecodingTests.read(path, budgetBytes: budgetBytes, skimming: false)
    let whole = SecondHalfDecodingTests.read(path, whole: true)
    let collection = try skimmed.get()
    #expect(try collection == checked.get())
    #expect(try collection == whole.get())
    #expect(!collection.cards.isEmpty && collection.cards.count % 200 == 0)
  }

  /// Changes made to one card past the middle of the cards: each passes the structural skim,
  /// and only a check of the element finds (or, for the valid ones, clears) it.
  static let damages: [(String, String, String)] = [
    ("a leading zero", "\"template\": ", "\"template\": 0"),
    ("a missing comma", "\"template\": 0,", "\"template\": 0"),
    ("a bracket that does not match", "\"scheduling\": {", "\"scheduling\": ["),
    ("a raw control character in a string", "\"data\": \"", "\"data\": \"\t"),
    ("an escape in a key (valid)", "\"deck\": ", "\"d\\u0065ck\": "),
    ("an escaped quote in a value (valid)", "\"data\": \"", "\"data\": \"\\\"q\\\" "),
    ("a key the decoder does not know, holding an array (valid)", "\"deck\": ", "\"x\": [1, [2]], \"deck\": "),
    ("a lone surrogate", "\"data\": \"", "\"data\": \"\\ud800"),
    (
      "nesting deeper than allowed", "\"deck\": ",
      "\"x\": \(String(repeating: "[", count: 600))\(String(repeating: "]", count: 600)), \"deck\": "
    ),
    ("a string left open to the end of the file", "\"data\": \"{}\"", "\"data\": \"{}"),
    ("a number too large (valid syntax)", "\"modified\": ", "\"modified\": 99999999999999999999"),
    ("a card naming no note", "\"note\": ", "\"note\": 4242, \"y\": "),
  ]

  /// The first occurrence of `text` past the middle of the cards of the writer-made `document`.
  static func pastMiddleOfCards(_ text: String, in document: String) throws -> Range<String.Index> {
    let cardsStart = try #require(document.range(of: "\"cards\": [")).upperBound
    let cardsEnd = try #require(document.range(of: "\n  ]", range: cardsStart..<document.endIndex)).lowerBound
    let middle = document.index(cardsStart, offsetBy: document.distance(from: cardsStart, to: cardsEnd) / 2)
    return try #require(document.range(of: text, range: middle..<cardsEnd))
  }

  @Test(
    "a problem in an element passed over is reported as reading every byte reports it",
    arguments: damages.indices, [0, 60_000])
  func damagedElement(number: Int, budgetBytes: Int) throws {
    let (name, find, replacement) = Self.damages[number]
    let scratch = try TemporaryDirectory()
    let path = try SecondHalfDecodingTests.document(copies: 100, in: scratch)
    var text = try String(contentsOfFile: path, encoding: .utf8)
    let place = try Self.pastMiddleOfCards(find, in: text)
    text.replaceSubrange(place, with: replacement)
    if name.hasPrefix("a string left open") { text = String(text[..<place.upperBound]) }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    Self.expectSame(path, "\(name)", budgetBytes: budgetBytes)
  }

  @Test("a problem in an element passed over comes before a later one, of syntax or of decoding")
  func earlierProblemFirst() throws {
    let scratch = try TemporaryDirectory()
    let path = try SecondHalfDecodingTests.document(copies: 100, in: scratch)
    var text = try String(contentsOfFile: path, encoding: .utf8)
    // A card past the middle of the cards (past the budget either way): a leading zero.
    text.replaceSubrange(try Self.pastMiddleOfCards("\"template\": ", in: text), with: "\"template\": 0")
    // Later: a review with a value of the wrong type, and a syntax error at the document's end.
    let reviewsStart = try #require(text.range(of: "\"reviews\": [")).upperBound
    let review = try #require(text.range(of: "\"button\": ", range: reviewsStart..<text.endIndex))
    text.replaceSubrange(review, with: "\"button\": \"three\", \"z\": ")
    text += " x"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    for budget in [0, 60_000] {
      let counter = ReadCounter()
      let reporter = ProgressReporter(minimumInterval: 0) { counter.record($0) }
      let skimmed = SecondHalfDecodingTests.read(path, budgetBytes: budget, progress: reporter)
      #expect(counter.reads == 2, "the shortcut failed and the document was read again")
      guard case .failure(let error) = skimmed else {
        Issue.record("read a damaged document")
        continue
      }
      #expect(error.location.line != nil && error.message.contains("invalid JSON"), "\(error)")
      Self.expectSame(path, "budget \(budget)", budgetBytes: budget)
    }
  }

  /// Expects reading `path` passing elements over, checking them in the pass, and decoding the
  /// document whole to give the same model or the same first problem.
  static func expectSame(_ path: String, _ comment: Comment, budgetBytes: Int) {
    let skimmed = SecondHalfDecodingTests.read(path, budgetBytes: budgetBytes)
    let checked = SecondHalfDecodingTests.read(path, budgetBytes: budgetBytes, skimming: false)
    let alone = SecondHalfDecodingTests.read(path, secondHalf: false, budgetBytes: budgetBytes)
    let whole = SecondHalfDecodingTests.read(path, whole: true)
    #expect(String(describing: skimmed) == String(describing: checked), comment)
    #expect(String(describing: skimmed) == String(describing: alone), comment)
    switch (skimmed, whole) {
    case (.success(let a), .success(let b)): #expect(a == b, comment)
    case (.failure(let a), .failure(let b)): #expect(a == b, comment)
    default: Issue.record("one read failed, the other did not: \(comment) \(skimmed) / \(whole)")
    }
  }
}
