import DeckCore
import Foundation
import JSONCore

/// The JSON columns of a schema-11 `col` row (`models`, `decks`, `conf`, `tags`), built from
/// the model with every key Anki's importer requires, in the order Anki writes them.
///
/// Key requirements were established against the real importer (shared notes,
/// `anki-formats.md` §3.3–3.5); optional keys the model has no value for are left out, so Anki
/// substitutes its own defaults.
enum Schema11JSON {
  /// `{"<id>": entry, …}`, the shape of `models`, `decks` and `dconf`.
  static func map(_ entries: [(id: Int64, json: JSONValue)]) -> JSONValue {
    .object(entries.map { (String($0.id), $0.json) })
  }

  // MARK: - models

  /// One note type.
  static func noteType(_ noteType: NoteType) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("id", .int(noteType.id)),
      ("name", .string(noteType.name)),
      ("type", .int(noteType.kind == .cloze ? 1 : 0)),
      ("mod", .int(noteType.modificationTime)),
    ]
    members += Schema11Properties.noteTypeDefaults
    members += [
      ("sortf", .int(noteType.sortFieldIndex)),
      ("tmpls", .array(noteType.templates.enumerated().map { template(ordinal: $0.offset, $0.element) })),
      ("flds", .array(noteType.fields.enumerated().map { field(ordinal: $0.offset, $0.element) })),
      ("css", .string(noteType.css)),
    ]
    // An empty preamble most likely means the source had none; leaving the key out lets Anki
    // use its default, and reads back as "" either way.
    if !noteType.latexPreamble.isEmpty { members.append(("latexPre", .string(noteType.latexPreamble))) }
    if !noteType.latexPostamble.isEmpty { members.append(("latexPost", .string(noteType.latexPostamble))) }
    members.append(("latexsvg", .bool(noteType.latexSVG)))
    members.append(("req", TemplateRequirements.json(for: noteType)))
    if noteType.originalStockKind != 0 {
      members.append(("originalStockKind", .int(noteType.originalStockKind)))
    }
    if let originalID = noteType.originalID { members.append(("originalId", .int(originalID))) }
    // Where CrowdAnki keeps its identity inside Anki, so CrowdAnki recognises the note type.
    if let uuid = noteType.crowdAnkiUUID { members.append(("crowdanki_uuid", .string(uuid))) }
    return Schema11Properties.object(members, with: noteType.ankiProperties, of: .noteType)
  }

  private static func template(ordinal: Int, _ template: NoteType.CardTemplate) -> JSONValue {
    let members: [(String, JSONValue)] = [
      ("name", .string(template.name)),
      ("ord", .int(ordinal)),
      ("qfmt", .string(template.questionFormat)),
      ("afmt", .string(template.answerFormat)),
      ("bqfmt", .string(template.browserQuestionFormat)),
      ("bafmt", .string(template.browserAnswerFormat)),
      ("did", .optional(template.targetDeckID) { .int($0) }),
      ("bfont", .string(template.browserFontName)),
      ("bsize", .int(template.browserFontSize)),
      ("id", .optional(template.ankiID) { .int($0) }),
    ]
    return Schema11Properties.object(members, with: template.ankiProperties, of: .template)
  }

  private static func field(ordinal: Int, _ field: NoteType.Field) -> JSONValue {
    let members: [(String, JSONValue)] = [
      ("name", .string(field.name)),
      ("ord", .int(ordinal)),
      ("sticky", .bool(field.sticky)),
      ("rtl", .bool(field.rightToLeft)),
      ("font", .string(field.fontName)),
      ("size", .int(field.fontSize)),
      ("description", .string(field.description)),
      ("plainText", .bool(field.plainText)),
      ("collapsed", .bool(field.collapsed)),
      ("excludeFromSearch", .bool(field.excludeFromSearch)),
      ("id", .optional(field.ankiID) { .int($0) }),
      ("tag", .optional(field.tag) { .int($0) }),
      ("preventDeletion", .bool(field.preventDeletion)),
    ]
    return Schema11Properties.object(members, with: field.ankiProperties, of: .field)
  }

  // MARK: - decks

  /// One deck: the model's own properties, the members a fresh deck has
  /// (``Schema11Properties``), and the deck's ``Deck/ankiProperties`` laid over them.
  static func deck(_ deck: Deck) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("id", .int(deck.id)),
      ("mod", .int(deck.modificationTime)),
      ("name", .string(deck.name)),
    ]
    members += Schema11Properties.deckCommonDefaults
    members.append(("desc", .string(deck.description)))
    if deck.descriptionIsMarkdown { members.append(("md", .bool(true))) }
    if let uuid = deck.crowdAnkiUUID { members.append(("crowdanki_uuid", .string(uuid))) }
    switch deck.kind {
    case .normal(let optionsID):
      members += [("dyn", .int(0)), ("conf", .int(optionsID))]
      members += Schema11Properties.normalDeckDefaults
      return Schema11Properties.object(members, with: deck.ankiProperties, of: .normalDeck)
    case .filtered(let filtered):
      members += [
        ("dyn", .int(1)),
        ("resched", .bool(filtered.reschedule)),
        (
          "terms",
          .array(
            filtered.searchTerms.map { .array([.string($0.search), .int($0.limit), .int($0.order)]) })
        ),
      ]
      members += Schema11Properties.filteredDeckDefaults
      return Schema11Properties.object(members, with: deck.ankiProperties, of: .filteredDeck)
    }
  }

  // MARK: - conf

  /// The collection settings. The importer needs none of them, but they decide how Anki counts
  /// days in a restored collection: `schedVer` 2 (otherwise the importer "upgrades" v1
  /// scheduling and changes the cards), `rollover` 4, and `creationOffset` derived from
  /// `creationTime`, which Anki sets to 04:00 local time of the day the collection was made
  /// (`CardDueDates.creationOffset(creationTime:timeZone:)`, by which the model's due dates are
  /// counted too).
  static func collectionConfig(
    creationTime: Int64, currentNoteTypeID: Int64?, currentDeckID: Int64, nextPosition: Int64
  ) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("activeDecks", .array([.int(currentDeckID)])),
      ("addToCur", .bool(true)),
      ("collapseTime", .int(1200)),
      ("creationOffset", .int(CardDueDates.creationOffset(creationTime: creationTime))),
      ("curDeck", .int(currentDeckID)),
    ]
    if let currentNoteTypeID { members.append(("curModel", .int(currentNoteTypeID))) }
    members += [
      ("dayLearnFirst", .bool(false)),
      ("dueCounts", .bool(true)),
      ("estTimes", .bool(true)),
      ("newSpread", .int(0)),
      ("nextPos", .int(nextPosition)),
      ("rollover", .int(rolloverHour)),
      ("sched2021", .bool(true)),
      ("schedVer", .int(2)),
      ("sortBackwards", .bool(false)),
      ("sortType", .string("noteFld")),
      ("timeLim", .int(0)),
    ]
    return .object(members)
  }

  /// `generated` (``collectionConfig(creationTime:currentNoteTypeID:currentDeckID:nextPosition:)``)
  /// with a collection package's own settings laid over it: each setting replaces the generated
  /// value of its key or is added (and a collection kept by the v2 scheduler gets no
  /// `sched2021`, which would turn on v3), except where the written collection needs its own: `schedVer`
  /// stays at least 2 (the cards are written by v2's rules), `nextPos` at least the generated
  /// position (one past the highest new card's), `curDeck` and `activeDecks` are taken only when
  /// they name decks the collection has, and `curModel` only when it is an id (a note type Anki
  /// deleted is often still named there, and Anki keeps it so). A setting that is not
  /// JSON text is passed over (``PackageSelection`` reports it). `lastUnburiedDay`, when given,
  /// is written as `lastUnburied` (``CollectionWriter/lastUnburiedDay(of:now:)``).
  static func withSettings(
    _ generated: JSONValue, _ settings: [AnkiProperty], deckIDs: Set<Int64>, lastUnburiedDay: Int64? = nil
  ) -> JSONValue {
    var members = generated.members ?? []
    if let lastUnburiedDay { members.append(("lastUnburied", .int(lastUnburiedDay))) }
    func generatedValue(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
    for setting in settings {
      guard let value = Schema11Properties.value(of: setting) else { continue }
      /// An id the setting holds, as a number or as text (Anki 2.0 wrote `curModel` as text).
      func id(_ value: JSONValue) -> Int64? { value.int64 ?? value.string.flatMap { Int64($0) } }
      let kept: Bool
      switch setting.key {
      case "schedVer": kept = (value.int64 ?? 0) >= 2
      case "nextPos": kept = (value.int64 ?? .min) >= (generatedValue("nextPos")?.int64 ?? 1)
      case "curDeck": kept = id(value).map(deckIDs.contains) ?? false
      case "activeDecks":
        kept = value.elements.map { $0.allSatisfy { id($0).map(deckIDs.contains) ?? false } } ?? false
      // Anki leaves `curModel` naming a note type it deleted (and falls back to another when it
      // adds a note), and its restore keeps such a value: kept too, as long as it is an id.
      case "curModel": kept = id(value) != nil
      default: kept = true
      }
      guard kept else { continue }
      if let index = members.firstIndex(where: { $0.key == setting.key }) {
        members[index].value = value
      } else {
        members.append((setting.key, value))
      }
    }
    // A collection kept by Anki's v2 scheduler says so with `schedVer` 2 and no `sched2021`:
    // the generated `sched2021` would move it to the v3 scheduler, which Anki does only when
    // the user turns it on.
    let keptByV2 = settings.contains { $0.key == "schedVer" && Schema11Properties.value(of: $0)?.int64 == 2 }
    if keptByV2 && !settings.contains(where: { $0.key == "sched2021" }) { members.removeAll { $0.key == "sched2021" } }
    return .object(members)
  }

  /// The hour Anki starts a new day at, unless the user changed it.
  static let rolloverHour = 4

  // MARK: - tags

  /// The tag registry of a `.colpkg`: the collection's own list (``DeckCollection/tagRegistry``)
  /// as read, then every other tag the notes use, once (compared as Anki compares tags,
  /// ``FullCaseFolding``, the first spelling kept), waiting to be synced, as a collection holds them; an `.apkg` leaves it
  /// empty, as Anki does.
  static func tagRegistry(_ collection: DeckCollection, kind: AnkiPackageKind) -> JSONValue {
    guard kind == .colpkg else { return .object([]) }
    var seen = Set<String>()
    var members: [(String, JSONValue)] = []
    for tag in collection.tagRegistry where seen.insert(FullCaseFolding.key(tag.name)).inserted {
      members.append((tag.name, .int(tag.updateSequenceNumber)))
    }
    for note in collection.notes {
      for tag in note.tags where seen.insert(FullCaseFolding.key(tag)).inserted {
        members.append((tag, .int(-1)))
      }
    }
    return .object(members)
  }
}
