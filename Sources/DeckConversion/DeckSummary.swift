import DeckAnki
import DeckCore
import DeckIO
import Foundation

/// What `deckport inspect` reports about a deck: counts, the decks that hold cards, the notes'
/// tags, note types,
/// and the media notes refer to but the file lacks, as the real Anki would find them on import.
///
/// It encodes as ``jsonText()`` shows it, each warning as its one line of text.
public struct DeckSummary: DeckPartReport, Sendable, Equatable, Encodable {
  /// A note type as the summary shows it.
  public struct NoteTypeSummary: Sendable, Equatable, Codable {
    /// The note type's name.
    public var name: String
    /// `standard` or `cloze`.
    public var kind: String
    /// The field names, in order.
    public var fields: [String]
    /// The card template names, in order.
    public var templates: [String]
  }

  /// A tag as the summary shows it.
  public struct TagSummary: Sendable, Equatable, Codable {
    /// The tag (`a::b` for a subtag).
    public var name: String
    /// How many notes have it (not counting those with only a subtag of it).
    public var notes: Int
  }

  /// The exact input format, such as `apkg-latest`.
  public var format: String
  /// How many notes.
  public var notes: Int
  /// How many cards.
  public var cards: Int
  /// How many media files.
  public var media: Int
  /// How many review log entries.
  public var reviews: Int
  /// How many deletion records (notes, cards and decks deleted since the collection last
  /// synced, Anki's `graves`).
  public var deletions: Int
  /// How many of the collection's own settings (a collection package's, ``AnkiProperty``).
  public var settings: Int
  /// Full names (`A::B`) of the decks that hold at least one card, sorted.
  public var decks: [String]
  /// The tags the notes have, each with how many notes have it, sorted by name ignoring case.
  /// Tags that differ only in case are one, as in Anki, spelled as the first note has it.
  public var tags: [TagSummary]
  /// The note types Anki keeps when it imports the file, sorted by name: for a deck package the
  /// ones notes use (Anki's import skips the rest), for a collection package all of them.
  public var noteTypes: [NoteTypeSummary]
  /// Names of the note types the file defines that no note uses, sorted.
  public var unusedNoteTypes: [String]
  /// File names notes refer to that the deck does not contain, sorted.
  public var missingMedia: [String]
  /// Names of the deck's media files that nothing refers to as Anki finds references (media
  /// tags and `[sound:…]` in note fields; a note type's CSS and templates for `_` files),
  /// sorted: Anki's import of a deck package leaves them out, as does an .apkg written from the
  /// deck. Files whose names start with `_` or `latex-` are not among them: that import keeps
  /// them. Empty for a collection package, which Anki restores whole.
  public var unusedMedia: [String]
  /// The reader's warnings (each encoded as its one line, ``Diagnostic/exactDescription``).
  public var warnings: [Diagnostic]
  /// With `onlyDecks` or `onlyTags`: the decks and tags summarised and how much of the file
  /// they hold; nil when the summary is of the whole file.
  public var selection: DeckSelection?

  /// Summarises `deck`.
  public init(_ deck: LoadedDeck) {
    let collection = deck.collection
    format = deck.formatName
    notes = collection.notes.count
    cards = collection.cards.count
    media = collection.media.count
    reviews = collection.reviews.count
    deletions = collection.deletions.count
    settings = collection.settings.count
    let deckNames = Dictionary(
      collection.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    decks = Set(Set(collection.cards.map(\.deckID)).map { deckNames[$0] ?? "(missing deck \($0))" }).sorted()
    // A large deck's media scans are the costly part, and the summary is the last thing a
    // conversion does: the unused files are found on another thread while this one counts the
    // tags and the missing names (``missingMedia(in:)`` splits the notes between the cores).
    let keepsEveryNoteType = deck.formatName.hasPrefix("colpkg")
    let unusedWork =
      keepsEveryNoteType || collection.media.isEmpty ? nil : BackgroundWork { Self.unusedMedia(in: collection) }
    tags = Self.tagSummaries(of: collection.notes)
    let usedNoteTypeIDs = Set(collection.notes.map(\.noteTypeID))
    unusedNoteTypes = collection.noteTypes.filter { !usedNoteTypeIDs.contains($0.id) }.map(\.name).sorted()
    noteTypes = collection.noteTypes.filter {
      keepsEveryNoteType || usedNoteTypeIDs.contains($0.id)
    }.map {
      NoteTypeSummary(
        name: $0.name, kind: $0.kind.rawValue, fields: $0.fieldNames, templates: $0.templates.map(\.name))
    }.sorted {
      $0.name != $1.name ? $0.name < $1.name : $0.fields.lexicographicallyPrecedes($1.fields)
    }
    missingMedia = Self.missingMedia(in: collection)
    // The work throws nothing, and it is run once (the only other way `wait` throws).
    unusedMedia = (try? unusedWork?.wait()) ?? []
    warnings = deck.warnings
  }

  private enum CodingKeys: String, CodingKey {
    case format, notes, cards, media, reviews, deletions, settings, decks, tags, noteTypes, unusedNoteTypes
    case missingMedia, unusedMedia, warnings, selection
  }

  /// Encodes the summary as ``jsonText()`` shows it: every property under its own name, each
  /// warning as its one line (``Diagnostic/exactDescription``), no `selection` for the whole file.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(format, forKey: .format)
    try container.encode(notes, forKey: .notes)
    try container.encode(cards, forKey: .cards)
    try container.encode(media, forKey: .media)
    try container.encode(reviews, forKey: .reviews)
    try container.encode(deletions, forKey: .deletions)
    try container.encode(settings, forKey: .settings)
    try container.encode(decks, forKey: .decks)
    try container.encode(tags, forKey: .tags)
    try container.encode(noteTypes, forKey: .noteTypes)
    try container.encode(unusedNoteTypes, forKey: .unusedNoteTypes)
    try container.encode(missingMedia, forKey: .missingMedia)
    try container.encode(unusedMedia, forKey: .unusedMedia)
    try container.encode(warnings.map(\.exactDescription), forKey: .warnings)
    try container.encodeIfPresent(selection, forKey: .selection)
  }

  /// Each tag of `notes` with its count of notes; tags that differ only in case are counted as
  /// one, under the first note's spelling.
  static func tagSummaries(of notes: [Note]) -> [TagSummary] {
    var summaries: [TagSummary] = []
    var positions: [String: Int] = [:]
    for note in notes {
      var seen = Set<String>()
      for tag in note.tags {
        let key = tag.lowercased()
        guard seen.insert(key).inserted else { continue }
        if let position = positions[key] {
          summaries[position].notes += 1
        } else {
          positions[key] = summaries.count
          summaries.append(TagSummary(name: tag, notes: 1))
        }
      }
    }
    return summaries.sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
  }

  /// Names of media files nothing refers to, as Anki's import of a deck package finds references
  /// (compared as it stores both, normalised: `a/` refers to the file `a`), so the files it leaves
  /// out; not the files it keeps regardless (a name starting with `_` or `latex-`).
  static func unusedMedia(in collection: DeckCollection) -> [String] {
    guard !collection.media.isEmpty else { return [] }
    let referenced = MediaReferences.referencedNames(in: collection)
    return collection.media.map(\.name).filter {
      let stored = MediaFileName.normalized($0)
      return !referenced.contains(Array(stored.unicodeScalars)) && !MediaFileName.isStatic(stored)
    }.sorted()
  }

  /// Names referred to by note fields (as written, in NFC) that no media file has, compared as
  /// Anki's import of a package stores both (``MediaFileName/normalized(_:)``: `a:b.png` and `a/`
  /// refer to the files `ab.png` and `a`; `?`, stored as no name, to none).
  static func missingMedia(in collection: DeckCollection) -> [String] {
    let present = Set(collection.media.map { MediaFileName.normalized($0.name) })
    let notes = collection.notes
    // The notes in two halves, one per core (a large deck's scan is the last thing a
    // conversion does before it reports); each half's missing names, joined.
    let halves = notes.count < 20_000 ? 1 : 2
    let found = FoundNames()
    DispatchQueue.concurrentPerform(iterations: halves) { half in
      let range = (notes.count * half / halves)..<(notes.count * (half + 1) / halves)
      var missing = Set<String>()
      // Notes name the same files over and over; look each name up once.
      var seen = Set<String>()
      for note in notes[range] {
        for field in note.fields {
          for name in MediaReferences.fileNames(in: field) where seen.insert(name).inserted {
            let stored = MediaFileName.normalized(name)
            if !present.contains(stored) { missing.insert(name.canonicallyComposed) }
          }
        }
      }
      found.add(missing)
    }
    return found.names.sorted()
  }

  /// The names each half found missing, joined (under a lock: the halves end on two threads).
  private final class FoundNames: @unchecked Sendable {
    private let lock = NSLock()
    private var found = Set<String>()

    func add(_ names: Set<String>) {
      lock.lock()
      found.formUnion(names)
      lock.unlock()
    }

    var names: Set<String> {
      lock.lock()
      defer { lock.unlock() }
      return found
    }
  }

  /// The summary as one JSON object (keys sorted, so the output is stable). Every string is
  /// exact; control and bidirectional characters in them are JSON escapes
  /// (``TerminalText/escapedJSON(_:)``), so the text is safe to print on a terminal.
  public func jsonText() throws -> String {
    try ReportJSON.text(self)
  }

  /// The summary as readable text, one fact per line, safe to print on a terminal: control and
  /// bidirectional characters in names are shown as ``TerminalText`` shows them, so a name
  /// never breaks its line.
  public var text: String { lines.map(TerminalText.escaped).joined(separator: "\n") }

  /// How many tags ``lines`` lists; ``jsonText()`` lists all.
  static let tagsShown = 30

  /// The lines of ``text``, names exactly as the input holds them (each to be escaped with
  /// ``TerminalText/escaped(_:)`` before it reaches a terminal).
  public var lines: [String] {
    var lines = [
      "Format:   \(format)",
      "Notes:    \(notes)",
      "Cards:    \(cards)",
      "Reviews:  \(reviews)",
      "Media:    \(CountedNoun.phrase(media, "file"))"
        + (unusedMedia.isEmpty
          ? "" : " (\(unusedMedia.count) that nothing refers to as Anki finds references; its import leaves them out)"),
    ]
    if let selection { lines.insert(selection.line, at: 1) }
    if deletions > 0 { lines.append("Deletion records: \(deletions)") }
    if settings > 0 { lines.append("Collection settings: \(settings)") }
    lines += ["Decks with cards:"]
    lines += decks.map { "  \($0)" }
    if !tags.isEmpty {
      lines.append("Tags: \(tags.count)")
      lines += tags.prefix(Self.tagsShown).map { "  \($0.name) (\(CountedNoun.phrase($0.notes, "note")))" }
      if tags.count > Self.tagsShown { lines.append("  … and \(tags.count - Self.tagsShown) more") }
    }
    lines.append("Note types:")
    for noteType in noteTypes {
      lines.append("  \(noteType.name) (\(noteType.kind))")
      lines.append("    fields:    \(noteType.fields.joined(separator: ", "))")
      lines.append("    templates: \(noteType.templates.joined(separator: ", "))")
    }
    if !unusedNoteTypes.isEmpty {
      lines.append("Note types no note uses: \(unusedNoteTypes.joined(separator: ", "))")
    }
    if !missingMedia.isEmpty {
      lines.append("Missing media (referenced by notes, absent from the file):")
      lines += missingMedia.map { "  \($0)" }
    }
    if !unusedMedia.isEmpty {
      lines.append("Media nothing refers to (left out by Anki's import of a deck package):")
      lines += unusedMedia.map { "  \($0)" }
    }
    return lines
  }
}
