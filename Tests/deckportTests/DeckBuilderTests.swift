import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// `DeckBuilder`: what an app's records become (GUIDs, cards, decks, note types, media), that
/// the same records always give the same deck, and that each mistake is an error naming it.
/// What Anki makes of the decks is judged in `DeckBuilderAnkiTests`.
@Suite("Building a deck from an app's records")
struct DeckBuilderTests {
  static let edited = Date(timeIntervalSince1970: 1_750_000_000)

  /// Three records of three note types in two decks, one of them nested.
  static func vocabulary(namespace: String = "com.example.vocabulary") throws -> DeckBuilder {
    var builder = DeckBuilder(namespace: namespace, modificationDate: Date(timeIntervalSince1970: 1_700_000_000))
    try builder.addNote(
      id: "word-1", fields: ["hablar", "to speak <loudly> & clearly\nor not"], format: .plainText,
      deck: "Spanish::Verbs", tags: ["verbs", "ar"], modified: edited)
    try builder.addNote(
      id: "word-2", fields: ["la casa", "the house"], noteType: StockNoteType.basicAndReversedCard.noteType,
      deck: "Spanish::Nouns")
    try builder.addNote(
      id: "sentence-1", fields: ["{{c1::Yo}} {{c2::hablo}} español", ""], noteType: StockNoteType.cloze.noteType)
    return builder
  }

  @Test("each record is a note with the GUID of its namespace and id, and the cards Anki makes for it")
  func notesAndCards() throws {
    let deck = try Self.vocabulary().build()
    let collection = deck.collection
    #expect(deck.warnings.isEmpty)
    #expect(deck.formatName == "deck-builder")
    #expect(
      collection.notes.map(\.guid)
        == ["word-1", "word-2", "sentence-1"].map {
          AnkiGUID.derived(from: ["com.example.vocabulary", $0])
        })
    #expect(collection.notes[0].fields == ["hablar", "to speak &lt;loudly&gt; &amp; clearly<br>or not"])
    #expect(collection.notes[0].tags == ["verbs", "ar"])
    #expect(collection.notes[0].modificationTime == 1_750_000_000)
    #expect(collection.notes[1].modificationTime == 1_700_000_000)
    #expect(collection.notes[1].fields == ["la casa", "the house"])

    let noteTypeNames = Dictionary(uniqueKeysWithValues: collection.noteTypes.map { ($0.id, $0.name) })
    #expect(collection.notes.map { noteTypeNames[$0.noteTypeID] } == ["Basic", "Basic (and reversed card)", "Cloze"])
    #expect(collection.noteTypes.map(\.id) == collection.noteTypes.map(\.id).sorted())

    // Basic: one card; reversed: two; the cloze note: one per cloze number.
    let cardsByNote = Dictionary(grouping: collection.cards, by: \.noteID)
    #expect(collection.notes.map { cardsByNote[$0.id]?.map(\.templateOrdinal) ?? [] } == [[0], [0, 1], [0, 1]])
    #expect(collection.cards.allSatisfy { $0.scheduling.type == .new && $0.scheduling.queue == .new })
    #expect(Set(collection.cards.map(\.id)).count == collection.cards.count)

    // Decks with their parents; notes without a deck go to Default (1).
    let deckNames = Dictionary(uniqueKeysWithValues: collection.decks.map { ($0.id, $0.name) })
    #expect(Set(collection.decks.map(\.name)) == ["Spanish", "Spanish::Verbs", "Spanish::Nouns", "Default"])
    #expect(
      collection.notes.map { note in deckNames[cardsByNote[note.id]?.first?.deckID ?? 0] }
        == ["Spanish::Verbs", "Spanish::Nouns", "Default"])
    #expect(collection.decks.first { $0.name == "Default" }?.id == 1)
  }

  @Test("a deck name Anki stores otherwise is stored so (one deck for both spellings), with one warning")
  func deckNamesNormalised() throws {
    var builder = DeckBuilder(namespace: "com.example.vocabulary")
    // A note refused for another reason leaves its deck name out of the warning.
    #expect(throws: DeckError.self) {
      try builder.addNote(id: "0", fields: ["a", "b"], deck: " Refused ", tags: ["two words"])
    }
    try builder.addNote(id: "1", fields: ["a", "b"], deck: " Spanish :: Nouns ")
    try builder.addNote(id: "2", fields: ["c", "d"], deck: "Spanish::Nouns")
    try builder.addNote(id: "3", fields: ["e", "f"], deck: "Spanish::bell\u{7}deck")
    let deck = builder.build()
    #expect(Set(deck.collection.decks.map(\.name)) == ["Spanish", "Spanish::Nouns", "Spanish::belldeck"])
    #expect(Set(deck.collection.cards.map(\.deckID)).count == 2)
    #expect(deck.warnings.map(\.category) == ["deck-renamed"])
    let warning = try #require(deck.warnings.first)
    #expect(warning.description.contains("deck ' Spanish :: Nouns '"))
    #expect(warning.message.hasSuffix("2 deck names are written as Anki stores them, this one as 'Spanish::Nouns'"))
  }

  @Test("a deck's description, on a deck notes named or a new one with its parents")
  func deckDescriptions() throws {
    var builder = try Self.vocabulary()
    try builder.describeDeck("spanish::verbs", as: "<b>Verbs</b>")
    try builder.describeDeck("French::Verbs", as: "*Soon*", isMarkdown: true)
    let error = try #require(throws: DeckError.self) { try builder.describeDeck("French::", as: "x") }
    #expect(error.description.contains("deck 'French::'") && error.message.contains("has an empty level"))
    let decks = builder.build().collection.decks
    let described = decks.filter { !$0.description.isEmpty }.map {
      "\($0.name): \($0.description) \($0.descriptionIsMarkdown)"
    }
    #expect(described.sorted() == ["French::Verbs: *Soon* true", "Spanish::Verbs: <b>Verbs</b> false"])
    #expect(decks.contains { $0.name == "French" })
  }

  @Test("a review state becomes each card's scheduling, its due day counted from the collection's creation")
  func reviewState() throws {
    let built = Date(timeIntervalSince1970: 1_700_000_000)
    var builder = DeckBuilder(namespace: "com.example.vocabulary", modificationDate: built)
    let due = built.addingTimeInterval(-40 * 86_400)
    try builder.addNote(
      id: "1", fields: ["la casa", "the house"], noteType: StockNoteType.basicAndReversedCard.noteType,
      reviewState: DeckBuilder.ReviewState(due: due, intervalDays: 9, ease: 2.15, reviews: 7, lapses: 2))
    try builder.addNote(id: "2", fields: ["a", "b"], suspended: true)
    let collection = builder.build().collection
    // The collection starts at 4 a.m. of the day the earliest due date falls in.
    #expect(collection.creationTime <= Int64(due.timeIntervalSince1970))
    #expect(collection.creationTime > Int64(due.timeIntervalSince1970) - 86_400)
    let reviewed = collection.cards.filter { $0.noteID == collection.notes[0].id }
    #expect(reviewed.count == 2)
    for card in reviewed {
      #expect(
        card.scheduling
          == CardScheduling(
            type: .review, queue: .review, due: 0, interval: 9, easeFactor: 2_150, reviews: 7, lapses: 2))
      // Read back as a date, the card is due on the Anki day (from 4 a.m.) the app's date is in.
      guard case .day(let start) = collection.due(of: card) else {
        Issue.record("not due by day: \(collection.due(of: card))")
        continue
      }
      #expect(start <= due && due.timeIntervalSince(start) < 86_400)
      #expect(Calendar.current.component(.hour, from: start) == 4)
    }
    let suspended = try #require(collection.cards.first { $0.noteID == collection.notes[1].id })
    #expect(suspended.scheduling == CardScheduling(type: .new, queue: .suspended, due: 2))

    let cases: [(DeckBuilder.ReviewState, String)] = [
      (.init(due: built, intervalDays: -1), "an interval of -1 days"),
      (.init(due: built, intervalDays: 40_000), "an interval of 40000 days"),
      (.init(due: built, intervalDays: 3, ease: 1.2), "an ease of 1.2"),
      (.init(due: built, intervalDays: 3, reviews: -1), "-1 reviews"),
      (.init(due: built, intervalDays: 3, reviews: 2, lapses: 3), "3 lapses after 2 reviews"),
      (.init(due: Date(timeIntervalSince1970: .nan), intervalDays: 3), "a due date out of range"),
    ]
    for (state, message) in cases {
      let error = try #require(throws: DeckError.self) {
        try builder.addNote(id: "bad", fields: ["a", "b"], reviewState: state)
      }
      #expect(
        error.message == "has a review state with \(message)"
          || error.message.hasPrefix("has a review state with \(message)"))
    }
    #expect(builder.build().collection.notes.count == 2)
  }

  @Test("a card's own review state replaces the note's for that card, and histories become the review log")
  func cardStatesAndHistory() throws {
    let built = Date(timeIntervalSince1970: 1_700_000_000)
    var builder = DeckBuilder(namespace: "com.example.vocabulary", modificationDate: built)
    let first = built.addingTimeInterval(-20 * 86_400)
    let history = [
      DeckBuilder.PastReview(date: first, answer: .good, intervalDays: 0, duration: 7.5, kind: .learning),
      DeckBuilder.PastReview(
        date: first.addingTimeInterval(86_400), answer: .good, intervalDays: 3, ease: 2.5, duration: 4),
      DeckBuilder.PastReview(
        date: first.addingTimeInterval(4 * 86_400), answer: .again, intervalDays: 1, previousIntervalDays: 3,
        ease: 2.3, duration: 12.25, kind: .relearning),
    ]
    let back = DeckBuilder.ReviewState(
      due: built.addingTimeInterval(2 * 86_400), intervalDays: 5, ease: 2.3, reviews: 3, lapses: 1, history: history)
    try builder.addNote(
      id: "1", fields: ["la casa", "the house"], noteType: StockNoteType.basicAndReversedCard.noteType,
      reviewState: DeckBuilder.ReviewState(due: built, intervalDays: 2), cardReviewStates: [1: back])
    // Another card answered at the very moment of the first answer: a millisecond later in the log.
    try builder.addNote(
      id: "2", fields: ["{{c1::Yo}} {{c2::hablo}}", ""], noteType: StockNoteType.cloze.noteType,
      cardReviewStates: [
        1: DeckBuilder.ReviewState(
          due: built, intervalDays: 1, history: [.init(date: first, answer: .easy, intervalDays: 1, ease: 2.65)])
      ])
    let collection = builder.build().collection
    let cards = Dictionary(
      uniqueKeysWithValues: collection.cards.map {
        ("\($0.noteID == collection.notes[0].id ? 1 : 2)/\($0.templateOrdinal)", $0)
      })
    #expect(cards.keys.sorted() == ["1/0", "1/1", "2/0", "2/1"])
    #expect(cards["1/0"]?.scheduling.interval == 2)
    #expect(cards["1/1"]?.scheduling.interval == 5)
    #expect(cards["1/1"]?.scheduling.lapses == 1)
    #expect(cards["2/0"]?.scheduling.type == .new)
    #expect(cards["2/1"]?.scheduling.type == .review)

    let start = Int64(first.timeIntervalSince1970) * 1_000
    let back1 = try #require(cards["1/1"]).id
    let cloze2 = try #require(cards["2/1"]).id
    #expect(
      collection.reviews == [
        Review(
          id: start, cardID: back1, ease: 3, interval: 0, lastInterval: 0, easeFactor: 0, duration: 7_500,
          kind: .learning),
        Review(
          id: start + 1, cardID: cloze2, ease: 4, interval: 1, lastInterval: 0, easeFactor: 2_650, duration: 0,
          kind: .review),
        Review(
          id: start + 86_400_000, cardID: back1, ease: 3, interval: 3, lastInterval: 0, easeFactor: 2_500,
          duration: 4_000, kind: .review),
        Review(
          id: start + 4 * 86_400_000, cardID: back1, ease: 1, interval: 1, lastInterval: 3, easeFactor: 2_300,
          duration: 12_250, kind: .relearning),
      ])
    #expect(builder.build().collection == collection)

    let before = collection
    let mistakes: [(note: [String], states: [Int: DeckBuilder.ReviewState], message: String)] = [
      (["a", "b"], [1: back], "has a review state for card 1, which Anki would not make; the note makes card 0"),
      (["a", ""], [0: back, 1: back], "for card 1, which Anki would not make; the note makes card 0 ("),
      (
        ["a", "b"],
        [
          0: .init(
            due: built, intervalDays: 2,
            history: [.init(date: Date().addingTimeInterval(600), answer: .good, intervalDays: 2)])
        ],
        "has a review state for card 0 with a past review (1 of 1) with a date in the future"
      ),
      (
        ["a", "b"],
        [
          0: .init(
            due: built, intervalDays: 2, history: history + [.init(date: first, answer: .hard, intervalDays: -1)])
        ],
        "with a past review (4 of 4) with an interval of -1 days"
      ),
      (
        ["a", "b"],
        [0: .init(due: built, intervalDays: 2, history: [.init(date: first, answer: .hard, intervalDays: 1, ease: 1)])],
        "with a past review (1 of 1) with an ease of 1.0"
      ),
      (
        ["a", "b"],
        [
          0: .init(
            due: built, intervalDays: 2, history: [.init(date: first, answer: .hard, intervalDays: 1, duration: -1)])
        ],
        "with a duration of -1.0 seconds"
      ),
      (
        ["a", "b"],
        [
          0: .init(
            due: built, intervalDays: 2, history: [.init(date: first, answer: .hard, intervalDays: 1, kind: .manual)])
        ],
        "with kind 4 (an answer is one of learning, review, relearning or filtered)"
      ),
    ]
    for mistake in mistakes {
      let error = try #require(throws: DeckError.self) {
        try builder.addNote(id: "bad", fields: mistake.note, cardReviewStates: mistake.states)
      }
      #expect(error.kind == .invalidRequest)
      #expect(error.description.contains("note 'bad'"))
      #expect(error.message.contains(mistake.message), "\(error.message)")
    }
    let unmade = try #require(throws: DeckError.self) {
      try builder.addNote(
        id: "bad", fields: ["{{c1::Yo}} {{c2::hablo}}", ""], noteType: StockNoteType.cloze.noteType,
        suspendedCards: [1, 5])
    }
    #expect(
      unmade.message
        == "suspends card 5, which Anki would not make; the note makes cards 0, 1 (a template's position from 0, or a cloze number less one)"
    )
    #expect(builder.build().collection == before)
  }

  @Test("single cards suspended by ordinal, the note's other cards not; with a review state or new")
  func suspendedCards() throws {
    var builder = DeckBuilder(
      namespace: "com.example.vocabulary", modificationDate: Date(timeIntervalSince1970: 1_700_000_000))
    try builder.addNote(
      id: "1", fields: ["la casa", "the house"], noteType: StockNoteType.basicAndReversedCard.noteType,
      suspendedCards: [1])
    try builder.addNote(
      id: "2", fields: ["el perro", "the dog"], noteType: StockNoteType.basicAndReversedCard.noteType,
      reviewState: DeckBuilder.ReviewState(due: Date(timeIntervalSince1970: 1_700_000_000), intervalDays: 3),
      suspendedCards: [0])
    let collection = builder.build().collection
    let queues = collection.notes.map { note in
      collection.cards.filter { $0.noteID == note.id }.sorted { $0.templateOrdinal < $1.templateOrdinal }
        .map(\.scheduling.queue)
    }
    #expect(queues == [[.new, .suspended], [.suspended, .review]])
    #expect(
      collection.cards.filter { $0.noteID == collection.notes[1].id }.allSatisfy { $0.scheduling.type == .review })
  }

  @Test("the same records give the same deck; another namespace gives other GUIDs for the same ids")
  func stable() throws {
    let first = try Self.vocabulary().build().collection
    let second = try Self.vocabulary().build().collection
    #expect(first == second)
    let other = try Self.vocabulary(namespace: "org.example.flashcards").build().collection
    #expect(Set(other.notes.map(\.guid)).isDisjoint(with: first.notes.map(\.guid)))
    #expect(other.notes.map(\.fields) == first.notes.map(\.fields))
  }

  @Test("an app's own note type keeps its id when its templates change")
  func ownNoteType() throws {
    var builder = DeckBuilder(namespace: "com.example.vocabulary")
    let listening = builder.noteType(
      named: "Listening", fields: ["Audio", "Text"],
      templates: [NoteType.CardTemplate(name: "Listen", questionFormat: "{{Audio}}", answerFormat: "{{Text}}")])
    let fixed = builder.noteType(
      named: "Listening", fields: ["Audio", "Text"],
      templates: [
        NoteType.CardTemplate(name: "Listen", questionFormat: "{{Audio}}", answerFormat: "{{FrontSide}}<hr>{{Text}}")
      ], css: ".card { color: navy }")
    #expect(listening.id == fixed.id)
    #expect(listening.id != DeckBuilder(namespace: "other").noteType(named: "Listening", fields: [], templates: []).id)
    #expect(fixed.css == ".card { color: navy }")
    #expect(listening.css.contains(".card {"))

    try builder.addNote(id: "1", fields: ["[sound:hola.mp3]", "hola"], noteType: listening)
    // The same note type again is the same note type; a changed one under its id is a mistake.
    try builder.addNote(id: "2", fields: ["[sound:adios.mp3]", "adiós"], noteType: listening)
    let error = try #require(throws: DeckError.self) {
      try builder.addNote(id: "3", fields: ["x", "y"], noteType: fixed)
    }
    #expect(error.kind == .invalidRequest)
    #expect(error.description.contains("note '3'"))
    #expect(error.description.contains("differs from the note type with its id"))
    #expect(builder.build().collection.notes.count == 2)
  }

  @Test(
    "a mistake is an error naming the record, and adds nothing",
    arguments: [
      ("", ["a", "b"], "Default", [], "has an empty id"),
      ("word-1", ["a", "b"], "Default", [], "was added before"),
      ("word-9", ["only one"], "Default", [], "has 1 field value; note type 'Basic' has 2 (Front, Back)"),
      ("word-9", ["a", "b", "c"], "Default", [], "has 3 field values"),
      ("word-9", ["a", "b"], "Spanish::::Verbs", [], "names deck 'Spanish::::Verbs', which has an empty level"),
      ("word-9", ["a", "b"], "  ", [], "which has an empty level"),
      ("word-9", ["a", "b"], "Default", ["verbs", "part of speech"], "has tag 'part of speech', which is empty"),
      ("word-9", ["a", "b"], "Default", [""], "has tag '', which is empty"),
      ("word-9", ["a", "b"], "Default", ["tab\there"], "has tag 'tab\\there'"),
    ] as [(String, [String], String, [String], String)])
  func mistakes(id: String, fields: [String], deck: String, tags: [String], message: String) throws {
    var builder = try Self.vocabulary()
    let before = builder.build().collection
    let error = try #require(throws: DeckError.self) {
      try builder.addNote(id: id, fields: fields, deck: deck, tags: tags)
    }
    #expect(error.kind == .invalidRequest)
    #expect(error.description.contains("DeckBuilder 'com.example.vocabulary'"))
    #expect(error.description.contains("note '\(id)'"))
    #expect(error.description.contains(message))
    #expect(builder.build().collection == before)
  }

  @Test("a note type Anki would refuse is refused when a note first uses it, naming both")
  func refusedNoteTypes() throws {
    var builder = DeckBuilder(namespace: "com.example.vocabulary")
    let card = NoteType.CardTemplate(name: "Card 1", questionFormat: "{{A}}", answerFormat: "{{A}}")
    let cases: [(NoteType, [String], String)] = [
      (builder.noteType(named: "Empty", fields: [], templates: [card]), [], "it has no fields"),
      (builder.noteType(named: "No cards", fields: ["A"], templates: []), ["x"], "it has no card templates"),
      (
        builder.noteType(named: "Twice", fields: ["A", "a"], templates: [card]), ["x", "y"], "two fields are named 'a'"
      ),
      (builder.noteType(named: "Odd", fields: ["A:B"], templates: [card]), ["x"], "field name 'A:B' contains ':'"),
      (builder.noteType(named: "", fields: ["A"], templates: [card]), ["x"], "the note type name is empty"),
    ]
    for (noteType, fields, message) in cases {
      let error = try #require(throws: DeckError.self) {
        try builder.addNote(id: "n", fields: fields, noteType: noteType)
      }
      #expect(error.kind == .invalidRequest)
      #expect(
        error.description.contains("note 'n': uses note type '\(noteType.name)', which Anki would refuse: \(message)"))
    }
    #expect(builder.build().collection.notes.isEmpty && builder.build().collection.noteTypes.isEmpty)
  }

  @Test("a second note type of a name used before is refused (Anki would rename one)")
  func sameNameOtherID() throws {
    var builder = DeckBuilder(namespace: "com.example.vocabulary")
    try builder.addNote(id: "1", fields: ["a", "b"])
    let ownBasic = builder.noteType(
      named: "basic", fields: ["Front", "Back"],
      templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "{{Back}}")])
    let error = try #require(throws: DeckError.self) {
      try builder.addNote(id: "2", fields: ["c", "d"], noteType: ownBasic)
    }
    #expect(error.description.contains("another one of that name"))
  }

  @Test("a modification time in the future becomes the time of building, with one warning")
  func futureTime() throws {
    var builder = DeckBuilder(namespace: "com.example.vocabulary")
    let before = Int64(Date().timeIntervalSince1970)
    try builder.addNote(id: "a", fields: ["1", "2"], modified: Date().addingTimeInterval(86_400))
    try builder.addNote(id: "b", fields: ["3", "4"], modified: Date().addingTimeInterval(3_600))
    try builder.addNote(id: "c", fields: ["5", "6"], modified: Self.edited)
    let deck = builder.build()
    let after = Int64(Date().timeIntervalSince1970)
    #expect(deck.collection.notes[0].modificationTime >= before && deck.collection.notes[0].modificationTime <= after)
    #expect(deck.collection.notes[2].modificationTime == 1_750_000_000)
    #expect(deck.warnings.map(\.category) == ["modification-time"])
    #expect(deck.warnings.first?.description.contains("note 'a'") == true)
    #expect(deck.warnings.first?.message.hasPrefix("2 notes were given a modification time in the future") == true)
  }

  @Test("media: bytes or a file, streamed when written; a name Anki would change is refused with the name it would use")
  func media() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let recording = scratch.path(for: "hola.mp3")
    try Data("ID3 not really audio".utf8).write(to: URL(filePath: recording))

    var builder = DeckBuilder(namespace: "com.example.vocabulary")
    try builder.addMedia(Data([0x89, 0x50, 0x4E, 0x47]), named: "casa.png")
    try builder.addMedia(contentsOf: URL(filePath: recording))
    try builder.addMedia(contentsOf: URL(filePath: recording), named: "hola again.mp3")
    let media = builder.build().collection.media
    #expect(media.map(\.name) == ["casa.png", "hola.mp3", "hola again.mp3"])
    #expect(try media[1].blob.data() == Data("ID3 not really audio".utf8))

    let cases: [(String, String)] = [
      ("folder/x.png", "it would store it as 'folderx.png'"),
      ("e\u{301}.png", "it would store it as '\u{e9}.png'"),
      ("what?.png", "it would store it as 'what.png'"),
      ("con", "it would store it as 'con_'"),
      ("casa.png", "was added before"),
      ("", "is not a name Anki can store"),
    ]
    for (name, message) in cases {
      let error = try #require(throws: DeckError.self) { try builder.addMedia(Data([1]), named: name) }
      #expect(error.kind == .invalidRequest)
      #expect(error.message.contains(message), "\(name): \(error)")
    }
    let missing = try #require(throws: DeckError.self) {
      try builder.addMedia(contentsOf: URL(filePath: scratch.path(for: "absent.mp3")))
    }
    #expect(missing.kind == .unreadableFile)
    #expect(missing.description.contains("absent.mp3"))
    #expect(builder.build().collection.media.count == 3)
  }
}
