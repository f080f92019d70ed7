import DeckCore

/// The deckport JSON deck format, version 1: one JSON document holding a whole deck, media
/// included, readable by a person and by `JSONDecoder`.
///
/// These `Codable` types are the format's schema (documented in `docs/json-format.md`, with a
/// JSON Schema beside it); they are kept apart from the model and mapped to it in
/// `DeckJSONDocument+Model.swift`. Values that are optional here may be left out of a
/// hand-written document; deckport always writes them.
///
/// ```swift
/// let document = try JSONDecoder().decode(DeckJSONDocument.self, from: data)
/// let image = Data(base64Encoded: document.media[0].data)
/// ```
package struct DeckJSONDocument: Codable, Sendable, Equatable {
  /// The format name every document starts with.
  package static let formatName = DeckportDocumentFormat.deck
  /// The version this deckport reads and writes.
  package static let currentVersion = 1

  /// Always ``formatName``.
  package var format: String
  /// The format version; a reader refuses versions it does not know.
  package var version: Int
  /// The collection's creation time in seconds since 1970; review due dates count days from it.
  package var creationTime: Int64?
  /// Deck option groups.
  package var deckOptions: [DeckOptionsJSON]?
  /// Decks, full `A::B` names.
  package var decks: [DeckJSON]?
  /// Note types; a hand-written document may leave out the stock note types its notes name
  /// (in any language Anki speaks), or all of them.
  package var noteTypes: [NoteTypeJSON]?
  /// Notes.
  package var notes: [NoteJSON]
  /// Cards with their scheduling.
  package var cards: [CardJSON]?
  /// The review log.
  package var reviews: [ReviewJSON]?
  /// Deletion records (Anki's `graves`); left out when there are none.
  package var deletions: [DeletionJSON]?
  /// The collection's own settings (a collection package's), each key's value its JSON text;
  /// left out when there are none.
  package var settings: StringMembersJSON?
  /// The collection's list of tags (a collection package's), in order; left out when empty.
  package var tagRegistry: [RegisteredTagJSON]?
  /// Media files with their bytes as base64.
  package var media: [MediaJSON]?

  /// Creates a document.
  package init(
    creationTime: Int64?, deckOptions: [DeckOptionsJSON]?, decks: [DeckJSON]?,
    noteTypes: [NoteTypeJSON], notes: [NoteJSON], cards: [CardJSON]?, reviews: [ReviewJSON]?,
    deletions: [DeletionJSON]? = nil, settings: StringMembersJSON? = nil, tagRegistry: [RegisteredTagJSON]? = nil,
    media: [MediaJSON]?
  ) {
    self.format = Self.formatName
    self.version = Self.currentVersion
    self.creationTime = creationTime
    self.deckOptions = deckOptions
    self.decks = decks
    self.noteTypes = noteTypes
    self.notes = notes
    self.cards = cards
    self.reviews = reviews
    self.deletions = deletions
    self.settings = settings
    self.tagRegistry = tagRegistry
    self.media = media
  }
}

/// A deck option group.
package struct DeckOptionsJSON: Codable, Sendable, Equatable {
  package var id: Int64
  package var name: String
  package var modified: Int64?
  /// The settings as Anki's schema-11 `dconf` JSON text, when they came from a schema-11 collection.
  package var anki11Json: String?
  /// The settings as Anki's schema-18 `DeckConfig.Config` protobuf, base64, otherwise.
  package var anki18Protobuf: String?
  /// What Anki keeps of the group outside its settings (a schema-18 group's sync state), key to
  /// JSON text; left out when empty.
  package var ankiProperties: StringMembersJSON?
}

/// A deck.
package struct DeckJSON: Codable, Sendable, Equatable {
  package var id: Int64?
  /// The full name, levels separated by `::`.
  package var name: String
  package var description: String?
  package var descriptionIsMarkdown: Bool?
  /// The option group of a normal deck.
  package var options: Int64?
  /// Present for a filtered deck.
  package var filtered: FilteredDeckJSON?
  package var modified: Int64?
  /// The identity CrowdAnki gave the deck, when it has one.
  package var crowdAnkiUUID: String?
  /// What else Anki keeps of it (``AnkiProperty``): key → the value's JSON text, sorted by key;
  /// left out when there is none.
  package var ankiProperties: StringMembersJSON?
}

/// The settings of a filtered deck.
package struct FilteredDeckJSON: Codable, Sendable, Equatable {
  package var reschedule: Bool
  package var searchTerms: [SearchTermJSON]

  /// One search of a filtered deck.
  package struct SearchTermJSON: Codable, Sendable, Equatable {
    package var search: String
    package var limit: Int
    package var order: Int
  }
}

/// A note type.
package struct NoteTypeJSON: Codable, Sendable, Equatable {
  package var id: Int64?
  package var name: String
  /// `standard` or `cloze`.
  package var kind: String?
  package var fields: [FieldJSON]
  package var templates: [TemplateJSON]
  package var css: String?
  /// The index of the field the browser sorts by.
  package var sortField: Int?
  package var latexPreamble: String?
  package var latexPostamble: String?
  package var latexSvg: Bool?
  package var originalStockKind: Int?
  package var originalId: Int64?
  package var modified: Int64?
  /// The identity CrowdAnki gave the note type, when it has one.
  package var crowdAnkiUUID: String?
  /// What else Anki keeps of it (``AnkiProperty``): key → the value's JSON text, sorted by key;
  /// left out when there is none.
  package var ankiProperties: StringMembersJSON?

  /// A field of a note type.
  package struct FieldJSON: Codable, Sendable, Equatable {
    package var name: String
    package var font: String?
    package var fontSize: Int?
    package var rightToLeft: Bool?
    package var sticky: Bool?
    package var description: String?
    package var plainText: Bool?
    package var collapsed: Bool?
    package var excludeFromSearch: Bool?
    package var ankiId: Int64?
    package var tag: Int?
    package var preventDeletion: Bool?
    /// What else Anki keeps of it (``AnkiProperty``): key → the value's JSON text, sorted by key;
    /// left out when there is none.
    package var ankiProperties: StringMembersJSON?
  }

  /// A card template of a note type.
  package struct TemplateJSON: Codable, Sendable, Equatable {
    package var name: String
    package var question: String
    package var answer: String?
    package var browserQuestion: String?
    package var browserAnswer: String?
    package var browserFont: String?
    package var browserFontSize: Int?
    package var targetDeck: Int64?
    package var ankiId: Int64?
    /// What else Anki keeps of it (``AnkiProperty``): key → the value's JSON text, sorted by key;
    /// left out when there is none.
    package var ankiProperties: StringMembersJSON?
  }
}

/// A note: field values keyed by field name, in the note type's field order.
package struct NoteJSON: Codable, Sendable, Equatable {
  package var id: Int64?
  package var guid: String?
  /// The note type, by id (a number) or by name (a string).
  package var noteType: Reference
  /// Field values keyed by field name, in field order, exactly as in Anki (HTML untouched).
  package var fields: StringMembersJSON
  package var tags: [String]?
  package var modified: Int64?
  /// The deck its cards go to, by id or by name, in a document that leaves its cards out
  /// (deckport then makes the cards Anki would make); deckport never writes it.
  package var deck: Reference? = nil
}

/// A card and its scheduling state.
package struct CardJSON: Codable, Sendable, Equatable {
  package var id: Int64
  /// The note's id.
  package var note: Int64
  /// The template index (standard) or cloze number minus one (cloze).
  package var template: Int
  /// The deck, by id (a number) or by name (a string).
  package var deck: Reference
  package var modified: Int64?
  package var scheduling: SchedulingJSON?

  /// Anki's scheduling state of a card; see `docs/json-format.md` for each value's meaning.
  package struct SchedulingJSON: Codable, Sendable, Equatable {
    package var type: Int
    package var queue: Int
    package var due: Int64
    package var interval: Int
    package var easeFactor: Int
    package var reviews: Int
    package var lapses: Int
    package var remainingSteps: Int
    package var flags: Int
    package var originalDue: Int64
    package var originalDeck: Int64
    package var data: String
  }
}

/// One entry of the review log.
package struct ReviewJSON: Codable, Sendable, Equatable {
  /// The review time in milliseconds since 1970.
  package var id: Int64
  package var card: Int64
  /// The answer button, 1 to 4 (0 for a manual reschedule).
  package var button: Int
  package var interval: Int64
  package var lastInterval: Int64
  package var easeFactor: Int
  /// Milliseconds taken.
  package var duration: Int
  package var kind: Int
}

/// A tag of the collection's list of tags (Anki's `tags` table).
package struct RegisteredTagJSON: Codable, Sendable, Equatable {
  package var name: String
  /// The update sequence number: -1 while the tag waits to be synced.
  package var usn: Int64
  /// Whether it is collapsed in the browser's sidebar; left out when the source does not say.
  package var collapsed: Bool?
}

/// A record that a note, card or deck was deleted since the collection last synced (a row of
/// Anki's `graves`).
package struct DeletionJSON: Codable, Sendable, Equatable {
  /// The id the deleted object had.
  package var id: Int64
  /// What was deleted: 0 a card, 1 a note, 2 a deck.
  package var kind: Int
  /// The update sequence number: -1 while the deletion waits for a sync.
  package var usn: Int64
}

/// A media file, its bytes embedded as base64.
package struct MediaJSON: Codable, Sendable, Equatable {
  package var name: String
  package var mimeType: String?
  /// The SHA-1 of the bytes, 40 hexadecimal digits; checked when the document is read.
  package var sha1: String?
  /// The number of bytes; checked when the document is read.
  package var size: Int64?
  /// The bytes, standard base64.
  package var data: String
}

/// A reference to a note type or deck: its id, or its name.
package enum Reference: Codable, Sendable, Equatable, Hashable {
  case id(Int64)
  case name(String)

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let id = try? container.decode(Int64.self) {
      self = .id(id)
    } else if let name = try? container.decode(String.self) {
      self = .name(name)
    } else {
      throw DecodingError.typeMismatch(
        Reference.self,
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: "expected an id (a number) or a name (a string)"))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .id(let id): try container.encode(id)
    case .name(let name): try container.encode(name)
    }
  }
}

/// A JSON object whose members are all strings, kept in order: a note's field values by field
/// name (in field order), or ``AnkiProperty`` values by key (a collection's settings, a deck's
/// properties; each value the JSON text of the property's value).
package struct StringMembersJSON: Codable, Sendable, Equatable {
  /// The field names, in order.
  package var names: [String]
  /// The values, in the same order as ``names``.
  package var values: [String]

  /// Creates field values from name-value pairs in order.
  package init(_ pairs: [(name: String, value: String)]) {
    names = pairs.map(\.name)
    values = pairs.map(\.value)
  }

  /// Creates field values from names and values in order (as many of each).
  init(names: [String], values: [String]) {
    self.names = names
    self.values = values
  }

  /// The value of the field named `name`.
  package subscript(name: String) -> String? {
    names.firstIndex(of: name).map { values[$0] }
  }

  private struct FieldName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  package init(from decoder: any Decoder) throws {
    let container: KeyedDecodingContainer<FieldName>
    do {
      container = try decoder.container(keyedBy: FieldName.self)
    } catch DecodingError.typeMismatch(_, let context) {
      throw DecodingError.typeMismatch(
        [String: String].self,
        DecodingError.Context(codingPath: context.codingPath, debugDescription: "expected an object of strings"))
    }
    names = []
    values = []
    // The decoder gives the keys in no fixed order (a dictionary's, which changes from one run
    // to the next): taken by name, so that the first problem reported is always the same one.
    // The fields are matched to the note type's by name, so their order here does not matter.
    for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
      names.append(key.stringValue)
      values.append(try container.decode(String.self, forKey: key))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: FieldName.self)
    for (name, value) in zip(names, values) {
      try container.encode(value, forKey: FieldName(stringValue: name))
    }
  }
}
