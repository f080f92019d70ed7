import DeckConversion
import DeckCore
import Foundation
import FuzzSupport
import FuzzWriting

// An app's values, hostile ones included, through the API an app exports with. The input is a
// small program: an output format (with its options), the builder's namespace and date, up to
// 24 calls (notes with review states and histories, note types of the app's own, deck
// descriptions, media), then the built deck's due dates (`DeckCollection.due(of:timeZone:)`,
// under settings and creation times from the input, in a time zone from the input), and the
// deck written in the chosen format. Each call must succeed or throw a DeckError; anything else,
// or a trap, is a finding.
let scratch = FuzzScratch(name: "builder")

let stores = StoreTemplate.load()
let zones = ["UTC", "Asia/Tokyo", "America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Australia/Lord_Howe"]
  .compactMap(TimeZone.init(identifier:))

extension FuzzInput {
  /// A number where date, ease and duration arithmetic goes wrong, or one from the input.
  mutating func double() -> Double {
    switch byte() % 3 {
    case 0:
      return pick([
        0, -0.0, 1.3, 1.2999, 2.5, 10, 10.0001, 3_600, 3_600.5, 86_400, 1e11, 1e11 + 1, -1e11, 1e15, 1e308,
        -1e308, .ulpOfOne, .leastNonzeroMagnitude, .nan, .infinity, -.infinity,
      ])
    case 1: return Double(integer())
    default: return Double(integer()) / 1_000
    }
  }

  /// A date: a moment from `double()` seconds since 1970, or one near now.
  mutating func date() -> Date {
    bool()
      ? Date(timeIntervalSince1970: double()) : Date().addingTimeInterval(Double(Int8(bitPattern: byte())) * 86_400)
  }

  mutating func reviewState() -> DeckBuilder.ReviewState {
    var state = DeckBuilder.ReviewState(
      due: date(), intervalDays: bool() ? Int(byte()) : int(), ease: bool() ? 2.5 : double(),
      reviews: bool() ? Int(byte()) : int(), lapses: bool() ? Int(byte() % 4) : int())
    for _ in 0..<Int(byte() % 4) {
      state.history.append(
        DeckBuilder.PastReview(
          date: date(), answer: pick([.again, .hard, .good, .easy]), intervalDays: bool() ? Int(byte()) : int(),
          previousIntervalDays: bool() ? Int(byte()) : int(), ease: bool() ? nil : double(), duration: double(),
          kind: ReviewKind(rawValue: Int(Int8(bitPattern: byte())))))
    }
    return state
  }
}

runFuzzer { data in
  var input = FuzzInput(data)
  let plan = OutputPlan(&input, stores: stores)
  var builder = DeckBuilder(namespace: input.string(), modificationDate: input.date())
  var noteTypes = StockNoteType.allCases.map(\.noteType)
  for _ in 0..<Int(input.byte() % 24) {
    switch input.byte() % 6 {
    case 0, 1, 2:
      let noteType = input.pick(noteTypes)
      let fieldCount = input.byte() % 8 == 7 ? Int(input.byte() % 4) : noteType.fields.count
      let fields = (0..<fieldCount).map { _ in input.string() }
      var cardStates: [Int: DeckBuilder.ReviewState] = [:]
      for _ in 0..<Int(input.byte() % 3) { cardStates[Int(Int8(bitPattern: input.byte()))] = input.reviewState() }
      let id = input.bool() ? "r\(input.byte())" : input.string()
      let deck = input.bool() ? input.pick(["Default", "A::B", "A::B::C", "Spanish"]) : input.string()
      let tags = (0..<Int(input.byte() % 3)).map { _ in input.string() }
      let modified = input.bool() ? nil : input.date()
      let state = input.bool() ? nil : input.reviewState()
      let format: DeckBuilder.FieldFormat = input.bool() ? .html : .plainText
      let suspended = input.bool()
      let suspendedCards = Set((0..<Int(input.byte() % 3)).map { _ in Int(Int8(bitPattern: input.byte())) })
      _ = fuzzStep("addNote") {
        try builder.addNote(
          id: id, fields: fields, format: format, noteType: noteType, deck: deck, tags: tags, modified: modified,
          reviewState: state, cardReviewStates: cardStates, suspended: suspended, suspendedCards: suspendedCards)
      }
    case 3:
      let fields = (0..<Int(input.byte() % 4)).map { _ in input.string() }
      let templates = (0..<Int(input.byte() % 3)).map { _ in
        NoteType.CardTemplate(name: input.string(), questionFormat: input.string(), answerFormat: input.string())
      }
      noteTypes.append(
        builder.noteType(
          named: input.string(), kind: input.bool() ? .standard : .cloze, fields: fields, templates: templates,
          css: input.bool() ? nil : input.string(), modified: input.bool() ? nil : input.date()))
    case 4:
      let name = input.string()
      let description = input.string()
      let isMarkdown = input.bool()
      _ = fuzzStep("describeDeck") { try builder.describeDeck(name, as: description, isMarkdown: isMarkdown) }
    default:
      let bytes = Data(input.raw(Int(input.byte())))
      let name = input.bool() ? "m\(input.byte()).png" : input.string()
      _ = fuzzStep("addMedia") { try builder.addMedia(bytes, named: name) }
    }
  }
  let deck = builder.build()

  var collection = deck.collection
  if input.bool() { collection.creationTime = input.integer() }
  for key in ["creationOffset", "rollover"] where input.bool() {
    collection.settings.append(
      AnkiProperty(key: key, jsonText: input.bool() ? String(input.integer()) : input.string()))
  }
  let zone = input.pick(zones)
  for card in collection.cards { _ = collection.due(of: card, timeZone: zone) }
  _ = collection.startOfDay(input.integer(), timeZone: zone)
  _ = collection.reviews.map(\.date)

  FuzzScratch.reset(scratch.work)
  _ = fuzzStep("write \(plan.format.name.rawValue)") { try plan.write(deck.collection, in: scratch.work) }
}
