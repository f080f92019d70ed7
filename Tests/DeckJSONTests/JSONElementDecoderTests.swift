import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckJSON

/// The reader's fast element decoder must decode what deckport writes (else every restore
/// falls back to `JSONDecoder`, correct but slow), and whatever it accepts must decode to what
/// `JSONDecoder` makes of the same text.
@Suite("JSON deck format: the fast element decoder")
struct JSONElementDecoderTests {
  /// The fast decoder's result for `text` (after the syntax pass, as the reader has it), and
  /// `JSONDecoder`'s (nil when it throws).
  static func both<Element: Decodable & Equatable>(
    _ text: String, _ fast: (UnsafeRawBufferPointer) -> Element?
  ) -> (fast: Element?, decoder: Element?) {
    let bytes = Array(text.utf8)
    let quick = bytes.withUnsafeBytes { buffer in
      (try? JSONSyntaxPass(bytes: buffer, location: SourceLocation(file: "t.json"))) != nil ? fast(buffer) : nil
    }
    let decoded = try? JSONDecoder().decode(Element.self, from: Data(bytes))
    return (quick.map { inFieldOrder($0) }, decoded.map { inFieldOrder($0) })
  }

  /// `element` with a note's fields sorted by name: `JSONDecoder` hands a note's keys over in no
  /// particular order (the reader puts the values in the note type's order either way).
  static func inFieldOrder<Element>(_ element: Element) -> Element {
    guard var note = element as? NoteJSON else { return element }
    let pairs = zip(note.fields.names, note.fields.values).sorted { $0.0 < $1.0 }
    note.fields = StringMembersJSON(names: pairs.map(\.0), values: pairs.map(\.1))
    return (note as? Element) ?? element
  }

  @Test(
    "deckport's own notes, cards and reviews are all decoded fast, as JSONDecoder decodes them",
    arguments: Fixtures.ankiPackages)
  func ownOutput(package: String) throws {
    let collection = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.json")
    try DeckJSONWriter().write(collection, to: path)
    let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    let mismatches = try bytes.withUnsafeBytes { buffer in
      let pass = try JSONSyntaxPass(
        bytes: buffer, location: SourceLocation(file: path), splitting: ["notes", "cards", "reviews"])
      return try Self.mismatches(pass, buffer, "notes", { JSONElementDecoder.note($0) })
        + Self.mismatches(pass, buffer, "cards", { JSONElementDecoder.card($0) })
        + Self.mismatches(pass, buffer, "reviews", { JSONElementDecoder.review($0) })
    }
    #expect(mismatches.isEmpty, "\(package)")
    // And during the syntax pass: none is left to the pass to check.
    var declined = 0
    var fieldNames: [String] = []
    _ = try bytes.withUnsafeBytes { buffer in
      try JSONSyntaxPass(
        bytes: buffer, location: SourceLocation(file: path), splitting: DeckJSONReader.Section.allCases.map(\.key),
        decodingElement: { key, bytes, start in
          let found = JSONElementDecoder.element(
            DeckJSONReader.Section.allCases[key], in: bytes, at: start, fieldNames: &fieldNames)
          if found == nil { declined += 1 }
          return found?.end
        })
    }
    #expect(declined == 0, "\(package)")
  }

  /// The places of the elements under `key` that the fast decoder does not decode as
  /// `JSONDecoder` does.
  static func mismatches<Element: Decodable & Equatable>(
    _ pass: JSONSyntaxPass, _ buffer: UnsafeRawBufferPointer, _ key: String,
    _ fast: (UnsafeRawBufferPointer) -> Element?
  ) throws -> [String] {
    let elements = pass.elements[key] ?? .init()
    var places: [String] = []
    for index in 0..<elements.count {
      let element = UnsafeRawBufferPointer(rebasing: buffer[elements.range(index)])
      let decoded = try JSONDecoder().decode(Element.self, from: Data(element))
      guard let quick = fast(element), inFieldOrder(quick) == inFieldOrder(decoded) else {
        places.append("\(key)[\(index)]")
        continue
      }
    }
    return places
  }

  static let notes = [
    #"{"id": 10, "guid": "g", "noteType": 5, "fields": {"Front": "a", "Back": "b"}, "tags": ["t"], "modified": 3}"#,
    #"{"noteType": "Basic", "fields": {"Back": "x\ty\\\"z\/", "Front": "\u00e9"}, "extra": [1, {"a": "]"}]}"#,
    #"{"noteType": 5, "fields": {"Front": "caf\u0065\u0301", "Back": "😀 \ud83d\ude00 é"}, "id": -0}"#,
    #"{"noteType": 5, "fields": {"Front": "a", "Front": "b"}}"#,
    #"{"noteType": 5, "fields": {"e\u0301": "a", "é": "b"}}"#,
    #"{"noteType": 5, "fields": {}, "id": 1, "id": 2}"#,
    #"{"noteType": 5, "fields": {}, "x": 1, "x": 2}"#,
    #"{"noteType": 5, "fields": {}, "x": 1, "y": [true, false, null, -1.5e3, {"z": {}}]}"#,
    #"{"noteType": 5, "fields": {}, "id": -9223372036854775808, "modified": 9223372036854775807}"#,
    #"{"noteType": 5, "fields": {}, "id": 9223372036854775808}"#,
    #"{"noteType": 5, "fields": {}, "id": -9223372036854775809}"#,
    #"{"noteType": 5, "fields": {}, "id": 1.0}"#,
    #"{"noteType": 5, "fields": {}, "id": 1e2}"#,
    #"{"noteType": 5, "fields": {}, "id": null}"#,
    #"{"noteType": 5, "fields": {}, "guid": null}"#,
    #"{"noteType": 5, "fields": {}, "tags": null}"#,
    #"{"noteType": 5, "fields": {}, "tags": [1]}"#,
    #"{"noteType": 5, "fields": {}, "tags": ["a", "b"], "extra": "\ud800"}"#,
    #"{"noteType": 5, "fields": {"Front": "\ud800"}}"#,
    #"{"noteType": 5, "fields": {"Front": 3}}"#,
    #"{"noteType": 5.5, "fields": {}}"#,
    #"{"noteType": true, "fields": {}}"#,
    #"{"noteType": 5}"#,
    #"{"fields": {}}"#,
    #"{"note\u0054ype": 5, "fields": {}}"#,
    #"{"noteType": 5, "fields": {}, "\u00e9": 1}"#,
    #"{"noteType": 5, "fields": [], "extra": 1e999}"#,
    #"[]"#, "3", "null",
  ]

  static let cards = [
    #"{"id": 20, "note": 10, "template": 0, "deck": 1, "modified": 4, "scheduling": {"type": 2, "queue": 2, "due": 5, "interval": 3, "easeFactor": 2500, "reviews": 1, "lapses": 0, "remainingSteps": 0, "flags": 0, "originalDue": 0, "originalDeck": 0, "data": ""}}"#,
    #"{"id": 20, "note": 10, "template": 0, "deck": "Default"}"#,
    #"{"id": 20, "note": 10, "template": 1.5, "deck": 1}"#,
    #"{"id": 20, "note": 10, "template": 0, "deck": 1, "scheduling": {"type": 1}}"#,
    #"{"id": 20, "note": 10, "template": 0, "deck": 1, "scheduling": null}"#,
    #"{"id": 20, "note": 10, "template": 0, "deck": 1, "scheduling": {"type": 2, "queue": 2, "due": 5, "interval": 3, "easeFactor": 2500, "reviews": 1, "lapses": 0, "remainingSteps": 0, "flags": 0, "originalDue": 0, "originalDeck": 0, "data": "", "type": 3}}"#,
    #"{"id": 20, "note": 10, "template": 0, "deck": 1, "scheduling": {"type": 2, "queue": 2, "due": 5, "interval": 3, "easeFactor": 2500, "reviews": 1, "lapses": 0, "remainingSteps": 0, "flags": 0, "originalDue": 0, "originalDeck": 0, "data": "{\"a\": 1}", "more": {}}}"#,
    #"{"id": 20, "note": 10, "deck": 1}"#,
  ]

  static let reviews = [
    #"{"id": 30, "card": 20, "button": 3, "interval": -600, "lastInterval": 0, "easeFactor": 2500, "duration": 900, "kind": 1}"#,
    #"{"id": 30, "card": 20, "button": 3, "interval": 3, "lastInterval": 0, "easeFactor": 2500, "duration": 900}"#,
    #"{"id": 30, "card": 20, "button": 3, "interval": 3, "lastInterval": 0, "easeFactor": 2500, "duration": 9e2, "kind": 1}"#,
    #"{"id": 30, "card": 20, "button": null, "interval": 3, "lastInterval": 0, "easeFactor": 2500, "duration": 900, "kind": 1}"#,
  ]

  @Test("what it accepts, JSONDecoder decodes the same; what it refuses, JSONDecoder judges")
  func sameAsDecoder() {
    var accepted = 0
    for text in Self.notes {
      let (fast, decoder) = Self.both(text, { JSONElementDecoder.note($0) })
      if let fast {
        accepted += 1
        #expect(fast == decoder, "\(text)")
      }
    }
    for text in Self.cards {
      let (fast, decoder) = Self.both(text, { JSONElementDecoder.card($0) })
      if let fast {
        accepted += 1
        #expect(fast == decoder, "\(text)")
      }
    }
    for text in Self.reviews {
      let (fast, decoder) = Self.both(text, { JSONElementDecoder.review($0) })
      if let fast {
        accepted += 1
        #expect(fast == decoder, "\(text)")
      }
    }
    // Elements with a key the format lacks ("extra", "more") are refused: the reader names the
    // key (UnknownKeyTests).
    #expect(accepted >= 6)
  }

  /// Texts the syntax pass refuses, each close to a note, card or review the decoder takes.
  static let invalid: [(DeckJSONReader.Section, [UInt8])] = [
    (.notes, Array(#"{"noteType": 5, "fields": {}, "id": 012}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {}, "id": -}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {}, "id": 1.}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {"Front": "a\#tb"}}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {"Front": "a\xb"}}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {"Front": "a\u12"}}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {"Front": "a"},}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {"Front" "a"}}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {"Front": "a",}}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {}, "tags": [,"a"]}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {}, "tags": ["a",]}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {}, "tags": ["a" "b"]}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {}, "x": tru}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {}, "x": [}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {}"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {"Front": "abc"#.utf8)),
    (.notes, Array(#"{"noteType": 5, "fields": {"Front": "é"}}"#.utf8).map { $0 == 0xA9 ? 0x41 : $0 }),
    (.notes, Array(#"{"noteType": 5, "fields": {"Front": "a"}}"#.utf8).map { $0 == UInt8(ascii: "a") ? 0xFF : $0 }),
    (.notes, Array("{\"noteType\": 5,\u{0B}\"fields\": {}}".utf8)),
    (.cards, Array(#"{"id": 20, "note": 10, "template": 00, "deck": 1}"#.utf8)),
    (.cards, Array(#"{"id": 20 "note": 10, "template": 0, "deck": 1}"#.utf8)),
    (
      .reviews,
      Array(
        #"{"id": 30, "card": 20, "button": 3, "interval": 3, "lastInterval": 0, "easeFactor": 2500, "duration": 900, "kind": 1,}"#
          .utf8)
    ),
  ]

  @Test("during the syntax pass, it takes only what the pass would take, and ends where the element ends")
  func checking() throws {
    let valid =
      Self.notes.map { (DeckJSONReader.Section.notes, Array($0.utf8)) }
      + Self.cards.map { (DeckJSONReader.Section.cards, Array($0.utf8)) }
      + Self.reviews.map { (DeckJSONReader.Section.reviews, Array($0.utf8)) }
    var decoded = 0
    // The field names carried from note to note, as the reader does.
    var fieldNames: [String] = []
    for (section, text) in valid + Self.invalid {
      // Followed by what comes after an element in its array.
      let bytes = text + Array(", {}]".utf8)
      let found = bytes.withUnsafeBytes {
        JSONElementDecoder.element(section, in: $0, at: 0, fieldNames: &fieldNames)
      }
      let checks = text.withUnsafeBytes { (try? JSONSyntaxPass(bytes: $0, location: SourceLocation(file: "t"))) != nil }
      guard let found else { continue }
      decoded += 1
      let shown = String(decoding: text, as: UTF8.self)
      #expect(checks, "\(shown)")
      #expect(found.end == text.count, "\(shown)")
      let data = Data(text)
      switch found.element {
      case .note(let note):
        let decoder = (try? JSONDecoder().decode(NoteJSON.self, from: data)).map { Self.inFieldOrder($0) }
        #expect(Self.inFieldOrder(note) == decoder, "\(shown)")
      case .card(let card): #expect(card == (try? JSONDecoder().decode(CardJSON.self, from: data)), "\(shown)")
      case .review(let review): #expect(review == (try? JSONDecoder().decode(ReviewJSON.self, from: data)), "\(shown)")
      }
    }
    #expect(decoded >= 6)
  }

  @Test(
    "repeated keys, escaped or non-ASCII keys, null and numbers that are not plain integers are left to JSONDecoder")
  func refusals() {
    for text in [
      #"{"noteType": 5, "fields": {}, "id": 1, "id": 2}"#, #"{"noteType": 5, "fields": {}, "x": 1, "x": 2}"#,
      #"{"noteType": 5, "fields": {"Front": "a", "Front": "b"}}"#,
      #"{"noteType": 5, "fields": {"e\u0301": "a", "é": "b"}}"#,
      #"{"note\u0054ype": 5, "fields": {}}"#, #"{"noteType": 5, "fields": {}, "\u00e9": 1}"#,
      #"{"noteType": 5, "fields": {}, "id": 1.0}"#, #"{"noteType": 5, "fields": {}, "guid": null}"#,
      #"{"noteType": 5, "fields": {}, "tags": ["a", "b"], "extra": "\ud800"}"#,
      #"{"noteType": 5, "fields": {"Front": "\ud800"}}"#, #"{"noteType": 5, "fields": {}, "id": 9223372036854775808}"#,
    ] {
      #expect(Self.both(text, { JSONElementDecoder.note($0) }).fast == nil, "\(text)")
    }
    #expect(Self.both(Self.cards[4], { JSONElementDecoder.card($0) }).fast == nil)
    #expect(Self.both(Self.cards[5], { JSONElementDecoder.card($0) }).fast == nil)
    #expect(Self.both(Self.reviews[2], { JSONElementDecoder.review($0) }).fast == nil)
  }
}
