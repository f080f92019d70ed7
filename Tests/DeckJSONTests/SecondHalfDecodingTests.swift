import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import JSONCore
import Testing

@testable import DeckJSON

/// The second half of each array is decoded on a second thread from a guessed element start,
/// and taken only when the pass proves the guess right: the model and the first problem must
/// be those of the pass alone, and of decoding the document whole.
@Suite("JSON deck format: the second half of each array decoded on a second thread")
struct SecondHalfDecodingTests {
  /// A real package's deck with its notes, cards and reviews repeated `copies` times (new ids
  /// and GUIDs), written by deckport's writer to `deck.json` in `scratch`.
  static func document(copies: Int, in scratch: TemporaryDirectory) throws -> String {
    let base = try AnkiPackageReader().read(path: Fixtures.path("anki/latest_sched.apkg")).collection
    var collection = base
    collection.notes = []
    collection.cards = []
    collection.reviews = []
    for copy in 0..<Int64(copies) {
      let shift = copy * 1_000_000
      collection.notes += base.notes.map { note in
        var note = note
        note.id += shift
        note.guid += "-\(copy)"
        return note
      }
      collection.cards += base.cards.map { card in
        var card = card
        card.id += shift
        card.noteID += shift
        return card
      }
      collection.reviews += base.reviews.map { review in
        var review = review
        review.id += shift
        review.cardID += shift
        return review
      }
    }
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    return path
  }

  /// Reads `path` with the second thread or without, or whole, the pass decoding elements from
  /// at most `budgetBytes` of text and passing over the rest unchecked when `skimming`
  /// (reporting to `progress`); the error with its place.
  static func read(
    _ path: String, secondHalf: Bool = true, whole: Bool = false, budgetBytes: Int = DecodedElements.defaultBudgetBytes,
    skimming: Bool = true, progress: ProgressReporter? = nil
  ) -> Result<DeckCollection, DeckError> {
    var reader = DeckJSONReader(progress: progress)
    reader.decodesOnSecondThread = secondHalf
    reader.decodingBudgetBytes = budgetBytes
    reader.splitsArrays = !whole
    reader.skimsPastBudget = skimming
    do {
      return .success(try reader.read(path: path).collection)
    } catch let error as DeckError {
      return .failure(error)
    } catch {
      return .failure(DeckError(.corrupt, at: SourceLocation(file: path), "\(error)"))
    }
  }

  static func expectSameReads(
    _ path: String, _ comment: Comment, budgetBytes: Int = DecodedElements.defaultBudgetBytes
  ) {
    let withThread = read(path, budgetBytes: budgetBytes)
    let alone = read(path, secondHalf: false, budgetBytes: budgetBytes)
    let whole = read(path, whole: true)
    #expect(String(describing: withThread) == String(describing: alone), comment)
    switch (withThread, whole) {
    case (.success(let a), .success(let b)): #expect(a == b, comment)
    case (.failure(let a), .failure(let b)): #expect(a == b, comment)
    default: Issue.record("one read failed, the other did not: \(comment)")
    }
  }

  @Test("a writer-made deck reads the same with the thread, without it, and whole")
  func sameModel() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.document(copies: 300, in: scratch)
    Self.expectSameReads(path, "writer-made")
    let collection = try #require(try? Self.read(path).get())
    #expect(collection.notes.count > 300 && collection.cards.count > 300 && collection.reviews.count > 300)
  }

  @Test("at its guess the pass takes every element from there to the array's end, in order")
  func takesTheSecondHalf() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.document(copies: 200, in: scratch)
    let file = try MappedFile(path: path, location: SourceLocation(file: path))
    let bytes = file.bytes
    let text = String(decoding: bytes, as: UTF8.self)
    let arrayStart = try #require(text.range(of: "\"notes\": [\n    {"))
    let first = text.utf8.distance(from: text.utf8.startIndex, to: arrayStart.upperBound) - 1
    let guess = try #require(SecondHalfDecoding.secondHalf(in: bytes, from: first, limit: bytes.count))
    #expect(guess > first && bytes[guess] == UInt8(ascii: "{"))
    // The elements from the guess on, one after another, as the pass would read them.
    var expected: [Range<Int>] = []
    var index = guess
    var names: [String] = []
    while let (_, end) = JSONElementDecoder.element(.notes, in: bytes, at: index, fieldNames: &names) {
      expected.append(index..<end)
      guard
        let (next, ends) = try? JSONBytes.scanListContinuation(
          bytes, from: end, closing: UInt8(ascii: "]"), orElse: .expectedCommaOrBracket), !ends
      else { break }
      index = next
    }
    let decoding = SecondHalfDecoding(file: file)
    defer { decoding.stop() }
    #expect(decoding.take(.notes, at: first, budgetBytes: .max) == nil, "the array's first element starts the thread")
    // Wait for the thread to have decoded everything before taking it.
    let deadline = Date().addingTimeInterval(60)
    var taken: [SecondHalfDecoding.Decoded]?
    while Date() < deadline {
      usleep(20_000)
      if decoding.isIdle {
        taken = decoding.take(.notes, at: guess, budgetBytes: .max)
        break
      }
    }
    #expect(taken?.map(\.range) == expected)
    #expect(expected.count > 100)
  }

  @Test("a pass that goes past the guess takes nothing, and a deck laid out on one line gets no guess")
  func wrongGuesses() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.document(copies: 50, in: scratch)
    let file = try MappedFile(path: path, location: SourceLocation(file: path))
    let text = String(decoding: file.bytes, as: UTF8.self)
    let arrayStart = try #require(text.range(of: "\"notes\": [\n    {"))
    let first = text.utf8.distance(from: text.utf8.startIndex, to: arrayStart.upperBound) - 1
    let guess = try #require(SecondHalfDecoding.secondHalf(in: file.bytes, from: first, limit: file.bytes.count))
    let decoding = SecondHalfDecoding(file: file)
    defer { decoding.stop() }
    _ = decoding.take(.notes, at: first, budgetBytes: .max)
    while !decoding.isIdle { usleep(1_000) }
    #expect(decoding.take(.notes, at: guess + 1, budgetBytes: .max) == nil)
    #expect(decoding.take(.notes, at: guess, budgetBytes: .max) == nil, "given up once passed")

    // Minified: no line to guess from; read alike all the same.
    let minified = scratch.path(for: "minified.json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: minified))
    let oneLine = try MappedFile(path: minified, location: SourceLocation(file: minified))
    #expect(SecondHalfDecoding.secondHalf(in: oneLine.bytes, from: 0, limit: oneLine.bytes.count) == nil)
    Self.expectSameReads(minified, "minified")
  }

  /// Changes made to one note, card or review past the middle of its array.
  static let damages: [(String, String, String)] = [
    ("a syntax error", "\"modified\": ", "\"modified\": ,"),
    ("a key spelled with an escape", "\"guid\": ", "\"gu\\u0069d\": "),
    ("a null where a value is optional", "\"tags\": [", "\"tags\": null, \"x\": ["),
    ("a number too large", "\"modified\": ", "\"modified\": 99999999999999999999"),
    ("a duplicate key", "\"guid\": ", "\"guid\": \"dup\", \"guid\": "),
    ("a note naming no note type", "\"noteType\": ", "\"noteType\": 4242, \"y\": "),
  ]

  @Test(
    "a problem in the second half, or in what the pass left past its budget, is reported as the pass alone reports it",
    arguments: damages.indices, [DecodedElements.defaultBudgetBytes, 0, 60_000])
  func damagedSecondHalf(number: Int, budgetBytes: Int) throws {
    let (name, find, replacement) = Self.damages[number]
    let scratch = try TemporaryDirectory()
    let path = try Self.document(copies: 100, in: scratch)
    var text = try String(contentsOfFile: path, encoding: .utf8)
    // The first occurrence past three quarters of the notes' text.
    let notesEnd = try #require(text.range(of: "\n  ],\n  \"cards\"")).lowerBound
    let notesStart = try #require(text.range(of: "\"notes\": [")).upperBound
    let span = text.distance(from: notesStart, to: notesEnd)
    let from = text.index(notesStart, offsetBy: span * 3 / 4)
    let place = try #require(text.range(of: find, range: from..<notesEnd))
    text.replaceSubrange(place, with: replacement)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    Self.expectSameReads(path, "\(name)", budgetBytes: budgetBytes)
  }

  @Test("past the pass's budget, a writer-made deck reads the same", arguments: [0, 60_000])
  func leftByThePass(budgetBytes: Int) throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.document(copies: 300, in: scratch)
    Self.expectSameReads(path, "budget \(budgetBytes)", budgetBytes: budgetBytes)
  }

  @Test("the elements the pass left are decoded a chunk at a time by the thread or the reader, in order")
  func leftChunks() throws {
    let scratch = try TemporaryDirectory()
    let path = try Self.document(copies: 1_300, in: scratch)
    let file = try MappedFile(path: path, location: SourceLocation(file: path))
    let syntax = try JSONSyntaxPass(
      bytes: file.bytes, location: SourceLocation(file: path), splitting: ["notes", "cards", "reviews"])
    let notes = try #require(syntax.elements["notes"])
    // More chunks than the thread may decode ahead, so that the reader decodes some itself.
    #expect(notes.count > (LeftElementsDecoding.chunksAhead + 4) * LeftElementsDecoding.chunkLength)
    let left = LeftElementsDecoding(file: file, elements: [.notes: notes], leftFrom: [.notes: 100], unchecked: false)
    defer { left.stop() }
    // Before the reader starts, the thread decodes as far ahead as it may (or every chunk).
    let leftCount = notes.count - 100
    let chunks = (leftCount + LeftElementsDecoding.chunkLength - 1) / LeftElementsDecoding.chunkLength
    let ahead = min(LeftElementsDecoding.chunksAhead + 1, chunks)
    let deadline = Date().addingTimeInterval(60)
    while left.chunksDecodedByThread < ahead && Date() < deadline { usleep(1_000) }
    #expect(left.chunksDecodedByThread == ahead)
    var byThread = 0
    var names: [String] = []
    for index in 0..<notes.count {
      let taken = left.takeNote(index)
      if index < 100 { #expect(taken == nil, "not left by the pass: \(index)") }
      guard let taken else { continue }
      byThread += 1
      let bytes = UnsafeRawBufferPointer(rebasing: file.bytes[notes.range(index)])
      guard case .note(let expected) = JSONElementDecoder.element(.notes, checked: bytes, fieldNames: &names) else {
        Issue.record("note \(index) does not decode")
        continue
      }
      #expect(taken == expected, "note \(index)")
    }
    #expect(byThread >= min(ahead * LeftElementsDecoding.chunkLength, leftCount))
  }
}
