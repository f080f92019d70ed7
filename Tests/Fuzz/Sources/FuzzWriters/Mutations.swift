import DeckCore
import Foundation
import FuzzWriting

/// Changes to a valid collection, each read from the input: values inside items (text, ids,
/// scheduling numbers, times, deletion records, settings, Anki properties, the list of tags), references between them (a card's note and deck, a note's note
/// type, a review's card), names (decks, note types, fields, templates, tags, media) and the
/// items themselves (duplicated, removed, fields and templates added or taken away).
enum Mutations {
  /// How many mutations one input may apply at most.
  static let limit = 24

  /// Applies the mutations the input describes to `collection`.
  static func apply(_ input: inout FuzzInput, to collection: inout DeckCollection) {
    var applied = 0
    while !input.isEmpty && applied < limit {
      applied += 1
      let operation = input.byte()
      switch operation % 20 {
      case 0: noteField(&input, &collection)
      case 1: noteFieldCount(&input, &collection)
      case 2: noteNumbers(&input, &collection)
      case 3: noteGUID(&input, &collection)
      case 4: noteTags(&input, &collection)
      case 5: cardReferences(&input, &collection)
      case 6, 7: cardScheduling(&input, &collection)
      case 8: review(&input, &collection)
      case 9: deck(&input, &collection)
      case 10: noteTypeShape(&input, &collection)
      case 11: noteTypeNames(&input, &collection)
      case 12: template(&input, &collection)
      case 13: media(&input, &collection)
      case 14: duplicate(&input, &collection)
      case 15: remove(&input, &collection)
      case 16: deckOptions(&input, &collection)
      case 17:
        switch input.byte() % 5 {
        case 0: collection.creationTime = input.integer()
        case 1: deletion(&input, &collection)
        case 2: ankiProperty(&input, &collection)
        case 3:
          // A tag of the list: a note's (in another case), or any name, number and state.
          let name = input.bool() ? input.pick(collection.notes.flatMap(\.tags) + ["x"]).uppercased() : input.string()
          let collapsed: Bool? = input.bool() ? nil : input.bool()
          collection.tagRegistry.append(
            RegisteredTag(name: name, updateSequenceNumber: input.integer(), isCollapsed: collapsed))
        default: setting(&input, &collection)
        }
      case 18: fieldSettings(&input, &collection)
      default: keepFew(&input, &collection)
      }
    }
  }

  /// An index into a collection of `count` items, or nil when there are none.
  private static func slot(_ input: inout FuzzInput, _ count: Int) -> Int? {
    count == 0 ? nil : input.index(count)
  }

  /// An id: one that exists in `existing`, one that does not, or any value.
  private static func reference(_ input: inout FuzzInput, existing: [Int64]) -> Int64 {
    switch input.byte() % 3 {
    case 0 where !existing.isEmpty: return input.pick(existing)
    case 1: return 424_242_424_242
    default: return input.integer()
    }
  }

  private static func noteField(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let note = slot(&input, collection.notes.count) else { return }
    let text = input.string()
    if let field = slot(&input, collection.notes[note].fields.count) {
      collection.notes[note].fields[field] = input.bool() ? text : collection.notes[note].fields[field] + text
    }
  }

  private static func noteFieldCount(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let note = slot(&input, collection.notes.count) else { return }
    switch input.byte() % 3 {
    case 0: collection.notes[note].fields.append(input.string())
    case 1: if !collection.notes[note].fields.isEmpty { collection.notes[note].fields.removeLast() }
    default: collection.notes[note].fields = []
    }
  }

  private static func noteNumbers(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let note = slot(&input, collection.notes.count) else { return }
    switch input.byte() % 3 {
    case 0: collection.notes[note].id = reference(&input, existing: collection.notes.map(\.id))
    case 1: collection.notes[note].noteTypeID = reference(&input, existing: collection.noteTypes.map(\.id))
    default: collection.notes[note].modificationTime = input.integer()
    }
  }

  private static func noteGUID(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let note = slot(&input, collection.notes.count) else { return }
    if input.bool(), let other = slot(&input, collection.notes.count) {
      collection.notes[note].guid = collection.notes[other].guid
    } else {
      collection.notes[note].guid = input.string()
    }
  }

  private static func noteTags(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let note = slot(&input, collection.notes.count) else { return }
    switch input.byte() % 3 {
    case 0: collection.notes[note].tags.append(input.string())
    case 1: collection.notes[note].tags = (0..<Int(input.byte() % 5)).map { _ in input.string() }
    default:
      if let tag = slot(&input, collection.notes[note].tags.count) { collection.notes[note].tags[tag] = input.string() }
    }
  }

  private static func cardReferences(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let card = slot(&input, collection.cards.count) else { return }
    switch input.byte() % 5 {
    case 0: collection.cards[card].id = reference(&input, existing: collection.cards.map(\.id))
    case 1: collection.cards[card].noteID = reference(&input, existing: collection.notes.map(\.id))
    case 2: collection.cards[card].deckID = reference(&input, existing: collection.decks.map(\.id))
    case 3: collection.cards[card].templateOrdinal = input.int()
    default: collection.cards[card].modificationTime = input.integer()
    }
  }

  private static func cardScheduling(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let card = slot(&input, collection.cards.count) else { return }
    var scheduling = collection.cards[card].scheduling
    switch input.byte() % 12 {
    case 0: scheduling.type = CardType(rawValue: input.int())
    case 1: scheduling.queue = CardQueue(rawValue: input.int())
    case 2: scheduling.due = input.integer()
    case 3: scheduling.interval = input.int()
    case 4: scheduling.easeFactor = input.int()
    case 5: scheduling.reviews = input.int()
    case 6: scheduling.lapses = input.int()
    case 7: scheduling.remainingSteps = input.int()
    case 8: scheduling.flags = input.int()
    case 9: scheduling.originalDue = input.integer()
    case 10: scheduling.originalDeckID = reference(&input, existing: collection.decks.map(\.id))
    default: scheduling.data = input.string()
    }
    collection.cards[card].scheduling = scheduling
  }

  private static func review(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let review = slot(&input, collection.reviews.count) else { return }
    switch input.byte() % 8 {
    case 0: collection.reviews[review].id = reference(&input, existing: collection.reviews.map(\.id))
    case 1: collection.reviews[review].cardID = reference(&input, existing: collection.cards.map(\.id))
    case 2: collection.reviews[review].ease = input.int()
    case 3: collection.reviews[review].interval = input.integer()
    case 4: collection.reviews[review].lastInterval = input.integer()
    case 5: collection.reviews[review].easeFactor = input.int()
    case 6: collection.reviews[review].duration = input.int()
    default: collection.reviews[review].kind = ReviewKind(rawValue: input.int())
    }
  }

  /// Adds a collection setting: one of those the writer gives its own value by rule, or any
  /// key, with a number, an id the collection has, or any text (JSON or not).
  private static func setting(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    let keys = ["schedVer", "nextPos", "curDeck", "activeDecks", "curModel", "rollover"]
    let key = input.bool() ? input.pick(keys) : input.string()
    let ids = collection.decks.map(\.id) + collection.noteTypes.map(\.id)
    let text: String
    switch input.byte() % 4 {
    case 0: text = String(input.integer())
    case 1: text = "[\(reference(&input, existing: ids))]"
    case 2: text = "\"\(reference(&input, existing: ids))\""
    default: text = input.string()
    }
    collection.settings.append(AnkiProperty(key: key, jsonText: text))
  }

  /// Adds an Anki property to a deck, note type, field, template or option group: a key the
  /// writer writes from the model itself, one it gives a default, or any key, with a number, an
  /// array or any text (JSON or not).
  private static func ankiProperty(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    let keys = [
      "name", "id", "dyn", "conf", "usn", "collapsed", "newToday", "did", "req", "flds", "media", "new", "maxTaken",
    ]
    let key = input.bool() ? input.pick(keys) : input.string()
    let text: String
    switch input.byte() % 3 {
    case 0: text = String(input.integer())
    case 1: text = "[\(input.integer()),\(input.integer())]"
    default: text = input.string()
    }
    let property = AnkiProperty(key: key, jsonText: text)
    switch input.byte() % 5 {
    case 0:
      guard let deck = slot(&input, collection.decks.count) else { return }
      collection.decks[deck].ankiProperties.append(property)
    case 4:
      guard let group = slot(&input, collection.deckOptions.count) else { return }
      collection.deckOptions[group].ankiProperties.append(property)
    case 1:
      guard let noteType = slot(&input, collection.noteTypes.count) else { return }
      collection.noteTypes[noteType].ankiProperties.append(property)
    case 2:
      guard let noteType = slot(&input, collection.noteTypes.count),
        let field = slot(&input, collection.noteTypes[noteType].fields.count)
      else { return }
      collection.noteTypes[noteType].fields[field].ankiProperties.append(property)
    default:
      guard let noteType = slot(&input, collection.noteTypes.count),
        let template = slot(&input, collection.noteTypes[noteType].templates.count)
      else { return }
      collection.noteTypes[noteType].templates[template].ankiProperties.append(property)
    }
  }

  /// Adds a deletion record of any kind, id and update sequence number, or changes one.
  private static func deletion(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    let ids = collection.notes.map(\.id) + collection.cards.map(\.id) + collection.decks.map(\.id)
    let record = Deletion(
      objectID: reference(&input, existing: ids), kind: DeletionKind(rawValue: input.int()),
      updateSequenceNumber: input.integer())
    if let index = slot(&input, collection.deletions.count), input.bool() {
      collection.deletions[index] = record
    } else {
      collection.deletions.append(record)
    }
  }

  private static func deck(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let deck = slot(&input, collection.decks.count) else { return }
    switch input.byte() % 7 {
    case 0: collection.decks[deck].name = input.string()
    case 1: collection.decks[deck].name += "::" + input.string()
    case 2: collection.decks[deck].id = reference(&input, existing: collection.decks.map(\.id))
    case 3: collection.decks[deck].description = input.string()
    case 4:
      collection.decks[deck].kind = .normal(optionsID: reference(&input, existing: collection.deckOptions.map(\.id)))
    case 5:
      let terms = (0..<Int(input.byte() % 3)).map { _ in
        FilteredDeck.SearchTerm(search: input.string(), limit: input.int(), order: input.int())
      }
      collection.decks[deck].kind = .filtered(FilteredDeck(reschedule: input.bool(), searchTerms: terms))
    default: collection.decks[deck].modificationTime = input.integer()
    }
  }

  private static func noteTypeShape(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let type = slot(&input, collection.noteTypes.count) else { return }
    switch input.byte() % 9 {
    case 0: collection.noteTypes[type].kind = collection.noteTypes[type].kind == .cloze ? .standard : .cloze
    case 1: if !collection.noteTypes[type].fields.isEmpty { collection.noteTypes[type].fields.removeLast() }
    case 2: collection.noteTypes[type].fields.append(NoteType.Field(name: input.string()))
    case 3: if !collection.noteTypes[type].templates.isEmpty { collection.noteTypes[type].templates.removeLast() }
    case 4:
      collection.noteTypes[type].templates.append(
        NoteType.CardTemplate(name: input.string(), questionFormat: input.string(), answerFormat: input.string()))
    case 5: collection.noteTypes[type].sortFieldIndex = input.int()
    case 6: collection.noteTypes[type].id = reference(&input, existing: collection.noteTypes.map(\.id))
    case 7: collection.noteTypes[type].css = input.string()
    default:
      collection.noteTypes[type].originalStockKind = input.int()
      collection.noteTypes[type].originalID = input.bool() ? input.integer() : nil
      collection.noteTypes[type].modificationTime = input.integer()
    }
  }

  private static func noteTypeNames(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let type = slot(&input, collection.noteTypes.count) else { return }
    switch input.byte() % 4 {
    case 0: collection.noteTypes[type].name = input.string()
    case 1:
      if let field = slot(&input, collection.noteTypes[type].fields.count) {
        collection.noteTypes[type].fields[field].name = input.string()
      }
    case 2:
      if let template = slot(&input, collection.noteTypes[type].templates.count) {
        collection.noteTypes[type].templates[template].name = input.string()
      }
    default:
      // Two fields with one name, or names that differ only in case or normalisation.
      let fields = collection.noteTypes[type].fields
      if let first = slot(&input, fields.count), let second = slot(&input, fields.count) {
        let name = fields[first].name
        collection.noteTypes[type].fields[second].name = input.pick([
          name, name.uppercased(), name.decomposedStringWithCanonicalMapping, name + "\u{301}",
        ])
      }
    }
  }

  private static func template(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let type = slot(&input, collection.noteTypes.count),
      let template = slot(&input, collection.noteTypes[type].templates.count)
    else { return }
    var value = collection.noteTypes[type].templates[template]
    let fieldNames = collection.noteTypes[type].fieldNames
    switch input.byte() % 7 {
    case 0: value.questionFormat = input.string()
    case 1: value.answerFormat = input.string()
    case 2: value.questionFormat = "{{" + (input.bool() ? input.string() : "Missing field") + "}}"
    case 3:
      let name = fieldNames.isEmpty ? "Text" : input.pick(fieldNames)
      value.questionFormat = input.pick([
        "{{cloze:\(name)}}", "{{#\(name)}}{{\(name)}}{{/\(name)}}", "{{type:\(name)}}", "{{^\(name)}}x{{/\(name)}}",
      ])
    case 4: value.targetDeckID = input.bool() ? reference(&input, existing: collection.decks.map(\.id)) : nil
    case 5: value.ankiID = input.bool() ? input.integer() : nil
    default:
      value.browserQuestionFormat = input.string()
      value.browserFontSize = input.int()
      value.browserFontName = input.string()
    }
    collection.noteTypes[type].templates[template] = value
  }

  private static func fieldSettings(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let type = slot(&input, collection.noteTypes.count),
      let field = slot(&input, collection.noteTypes[type].fields.count)
    else { return }
    var value = collection.noteTypes[type].fields[field]
    switch input.byte() % 5 {
    case 0: value.fontSize = input.int()
    case 1: value.ankiID = input.bool() ? input.integer() : nil
    case 2: value.tag = input.bool() ? input.int() : nil
    case 3:
      value.fontName = input.string()
      value.description = input.string()
    default:
      value.rightToLeft = input.bool()
      value.sticky = input.bool()
      value.plainText = input.bool()
      value.collapsed = input.bool()
      value.excludeFromSearch = input.bool()
      value.preventDeletion = input.bool()
    }
    collection.noteTypes[type].fields[field] = value
  }

  private static func media(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    switch input.byte() % 6 {
    case 0:
      guard let file = slot(&input, collection.media.count) else { return }
      collection.media[file].name = input.string()
    case 1:
      // Two entries for one name, or names equal but for case or normalisation.
      guard let file = slot(&input, collection.media.count) else { return }
      var copy = collection.media[file]
      copy.name = input.pick([
        copy.name, copy.name.uppercased(), copy.name.decomposedStringWithCanonicalMapping,
        copy.name.precomposedStringWithCanonicalMapping, copy.name + "\u{301}",
      ])
      if input.bool() { copy.blob = MediaBlob(data: Data(input.raw(Int(input.byte())))) }
      collection.media.append(copy)
    case 2:
      let name = input.string()
      let data = Data(input.raw(Int(input.byte())))
      collection.media.append(
        MediaFile(name: name, mimeType: input.bool() ? input.string() : nil, blob: MediaBlob(data: data)))
    case 3:
      guard let file = slot(&input, collection.media.count) else { return }
      collection.media[file].mimeType = input.string()
    case 4:
      // A blob whose declared size or digest does not match its bytes.
      guard let file = slot(&input, collection.media.count) else { return }
      let data = Data(input.raw(Int(input.byte())))
      collection.media[file].blob = MediaBlob(
        source: InMemoryMediaSource(data: data), sha1: input.bool() ? input.raw(20) : nil,
        size: input.bool() ? input.integer() : nil)
    default:
      // A note referring to a media file by a name the fuzzer chose, or one that exists.
      guard let note = slot(&input, collection.notes.count), !collection.notes[note].fields.isEmpty else { return }
      let name = input.bool() && !collection.media.isEmpty ? input.pick(collection.media).name : input.string()
      let reference = input.bool() ? "<img src=\"\(name)\">" : "[sound:\(name)]"
      collection.notes[note].fields[0] += reference
    }
  }

  private static func duplicate(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    switch input.byte() % 6 {
    case 0: if let note = slot(&input, collection.notes.count) { collection.notes.append(collection.notes[note]) }
    case 1: if let card = slot(&input, collection.cards.count) { collection.cards.append(collection.cards[card]) }
    case 2:
      if let review = slot(&input, collection.reviews.count) { collection.reviews.append(collection.reviews[review]) }
    case 3: if let deck = slot(&input, collection.decks.count) { collection.decks.append(collection.decks[deck]) }
    case 4:
      if let type = slot(&input, collection.noteTypes.count) { collection.noteTypes.append(collection.noteTypes[type]) }
    default:
      if let options = slot(&input, collection.deckOptions.count) {
        collection.deckOptions.append(collection.deckOptions[options])
      }
    }
  }

  private static func remove(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    switch input.byte() % 7 {
    case 0: if let note = slot(&input, collection.notes.count) { collection.notes.remove(at: note) }
    case 1: if let card = slot(&input, collection.cards.count) { collection.cards.remove(at: card) }
    case 2: if let review = slot(&input, collection.reviews.count) { collection.reviews.remove(at: review) }
    case 3: if let deck = slot(&input, collection.decks.count) { collection.decks.remove(at: deck) }
    case 4: if let type = slot(&input, collection.noteTypes.count) { collection.noteTypes.remove(at: type) }
    case 5: if let file = slot(&input, collection.media.count) { collection.media.remove(at: file) }
    default: if let options = slot(&input, collection.deckOptions.count) { collection.deckOptions.remove(at: options) }
    }
  }

  private static func deckOptions(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    guard let options = slot(&input, collection.deckOptions.count) else { return }
    switch input.byte() % 5 {
    case 0: collection.deckOptions[options].name = input.string()
    case 1: collection.deckOptions[options].id = reference(&input, existing: collection.deckOptions.map(\.id))
    case 2: collection.deckOptions[options].settings = .anki11JSON(input.string())
    case 3: collection.deckOptions[options].settings = .anki18Protobuf(Data(input.raw(Int(input.byte()))))
    default: collection.deckOptions[options].modificationTime = input.integer()
    }
  }

  /// Keeps only a few notes, cards and reviews, so most inputs stay small and quick.
  private static func keepFew(_ input: inout FuzzInput, _ collection: inout DeckCollection) {
    let count = Int(input.byte() % 4)
    collection.notes = Array(collection.notes.prefix(count))
    collection.cards = Array(collection.cards.prefix(count * 2))
    collection.reviews = Array(collection.reviews.prefix(count))
    if input.bool() { collection.media = Array(collection.media.prefix(count)) }
  }
}
