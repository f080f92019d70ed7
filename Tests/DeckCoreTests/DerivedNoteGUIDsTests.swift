import Testing

@testable import DeckCore

/// The GUIDs derived for notes whose source has none. The expected texts are genanki's
/// `guid_for` of each identity, computed with Python's hashlib (SHA-256 of the parts joined with
/// `__`, the first 8 bytes in base 91) and written here as data: a deck converted again must
/// give its notes the same GUIDs, or Anki's import adds them a second time.
@Suite("DerivedNoteGUIDs: GUIDs from a note's identity")
struct DerivedNoteGUIDsTests {
  static let noteTypeID: Int64 = 1_700_000_000_000
  /// `1700000000000__french__chat`, then with `\u{1F}occurrence 2`, 3 and 4 as a fourth part.
  static let chat = ["rDcr~j~=s9", "v=VBEO=7Rc", "c@9!m(VzWi", "lJRD7NviDQ"]

  @Test("notes of one identity take the sequence in order, other identities their own")
  func sequence() {
    var guids = DerivedNoteGUIDs()
    var made: [String] = []
    for word in ["chat", "chat", "chien", "chat", "chat"] {
      made.append(guids.next(noteTypeID: Self.noteTypeID, deck: "French::Animals", firstField: word))
    }
    #expect(made == [Self.chat[0], Self.chat[1], "GP=I(l%N5)", Self.chat[2], Self.chat[3]])
    #expect(guids.contains(Self.chat[3]))
  }

  @Test("a GUID the source gives is skipped, and a deck name's case and subdeck do not count")
  func taken() {
    var guids = DerivedNoteGUIDs(taken: [ExactKey(Self.chat[1])])
    guids.insert(Self.chat[2])
    let made = ["FRENCH", " French ::Verbs", "french"].map {
      guids.next(noteTypeID: Self.noteTypeID, deck: $0, firstField: "chat")
    }
    // The fifth of the sequence: 2 and 3 were the source's.
    #expect(made == [Self.chat[0], Self.chat[3], "J,i?_RnpY("])
  }
}
