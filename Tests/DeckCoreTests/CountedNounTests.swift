import DeckCore
import Testing

@Suite("Counts in messages")
struct CountedNounTests {
  @Test("the singular for exactly one, the plural for none, many and negative counts")
  func phrase() {
    #expect(CountedNoun.phrase(1, "note") == "1 note")
    #expect(CountedNoun.phrase(0, "note") == "0 notes")
    #expect(CountedNoun.phrase(2, "note type") == "2 note types")
    #expect(CountedNoun.phrase(-1, "byte") == "-1 bytes")
    #expect(CountedNoun.phrase(Int64(1), "byte") == "1 byte")
  }

  @Test("an irregular plural")
  func irregular() {
    #expect(CountedNoun.phrase(1, "entity", plural: "entities") == "1 entity")
    #expect(CountedNoun.phrase(3, "entity", plural: "entities") == "3 entities")
    #expect(CountedNoun.noun("review-log entry", plural: "review-log entries", for: 2) == "review-log entries")
  }

  @Test("the noun alone")
  func noun() {
    #expect(CountedNoun.noun("GUID", for: 1) == "GUID")
    #expect(CountedNoun.noun("GUID", for: 7) == "GUIDs")
  }
}
