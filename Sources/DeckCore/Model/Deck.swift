/// A deck: a named place for cards. Hierarchy is in the name (`Languages::French`).
public struct Deck: Sendable, Equatable, Identifiable {
  /// The deck's id (milliseconds since 1970 at creation in Anki; deck 1 is "Default").
  public var id: Int64
  /// The full name, levels separated by `::`.
  public var name: String
  /// The description shown on the deck overview (HTML, or Markdown when `descriptionIsMarkdown`).
  public var description: String
  /// Whether ``description`` is Markdown rather than HTML.
  public var descriptionIsMarkdown: Bool
  /// Whether this is a normal deck or a filtered deck, with the settings of each.
  public var kind: Kind
  /// Last modification, in seconds since 1970.
  public var modificationTime: Int64
  /// The identity CrowdAnki gave the deck (`crowdanki_uuid`), kept so that CrowdAnki matches it
  /// again on the next import; nil when no CrowdAnki export or import has touched the deck.
  public var crowdAnkiUUID: String?
  /// What else Anki keeps of the deck, under its schema-11 keys: whether it is collapsed in the
  /// deck list and the browser (`collapsed`, `browserCollapsed`), the day's study counts
  /// (`newToday`, …), its own limits (`extendNew`, `reviewLimit`, …), a filtered deck's preview
  /// delays, its sync state (`usn`), the note type last used with it (`mid`). Values a fresh
  /// deck has are not kept. Sorted by key. See ``AnkiProperty``.
  public var ankiProperties: [AnkiProperty]

  /// Normal or filtered.
  public enum Kind: Sendable, Equatable {
    /// A normal deck using the option group with this id.
    case normal(optionsID: Int64)
    /// A filtered deck gathering cards by search.
    case filtered(FilteredDeck)
  }

  /// Creates a deck.
  public init(
    id: Int64, name: String, description: String = "", descriptionIsMarkdown: Bool = false,
    kind: Kind = .normal(optionsID: 1), modificationTime: Int64 = 0, crowdAnkiUUID: String? = nil,
    ankiProperties: [AnkiProperty] = []
  ) {
    self.id = id
    self.name = name
    self.description = description
    self.descriptionIsMarkdown = descriptionIsMarkdown
    self.kind = kind
    self.modificationTime = modificationTime
    self.crowdAnkiUUID = crowdAnkiUUID
    self.ankiProperties = ankiProperties
  }

  /// The separator between levels of a deck name.
  public static let levelSeparator = "::"

  /// What Anki compares when it matches deck names: `name` in NFC, case-folded in full
  /// (``FullCaseFolding``: `Spanish` and `spanish` are one deck, and so are `Straße` and
  /// `STRASSE`).
  package static func matchingKey(_ name: String) -> String {
    FullCaseFolding.key(name)
  }

  /// What Anki compares of a deck's name as a file holds it: the name it stores
  /// (``storedName(_:)``: a package's `A :: b` is `A::b`), matched as ``matchingKey(_:)``.
  package static func storedMatchingKey(_ name: String) -> String {
    matchingKey(storedName(name))
  }

  /// The levels of the name, from the top: `A::B` gives `["A", "B"]`, split as Anki splits it
  /// (at each `::` from the left, byte by byte: `a:::b` is `a` and `:b`).
  public var nameComponents: [String] {
    Self.levels(of: name)
  }

  /// The levels of a `::` name (a deck's `A::B`, a tag's `a::b`) as Anki splits it: at each
  /// `::` from the left, byte by byte, so `a:::b` is `a` and `:b`, and a `::` before a combining
  /// mark still separates (Foundation's `components(separatedBy:)` compares characters, and
  /// would take `::\u{301}` for no separator).
  package static func levels(of name: String) -> [String] {
    let bytes = name.utf8
    var levels: [String] = []
    var start = bytes.startIndex
    var index = start
    while index != bytes.endIndex {
      let next = bytes.index(after: index)
      if bytes[index] == UInt8(ascii: ":"), next != bytes.endIndex, bytes[next] == UInt8(ascii: ":") {
        // Both halves end at an ASCII byte, so each is whole UTF-8.
        levels.append(String(decoding: bytes[start..<index], as: UTF8.self))
        start = bytes.index(after: next)
        index = start
      } else {
        index = next
      }
    }
    levels.append(String(decoding: bytes[start..<bytes.endIndex], as: UTF8.self))
    return levels
  }

  /// The most levels a deck name may have. Real decks have a few; every level needs a parent
  /// deck of its own, named in full, so a name of tens of thousands of levels (a 200 KB line of
  /// `a::a::…`) would need gigabytes for its parents' names, and it is refused instead.
  package static let maximumLevels = 100

  /// Why a deck named `name` cannot be made (more than ``maximumLevels`` levels), or nil.
  /// Counts the levels without splitting the name, as ``nameComponents`` would split it.
  package static func depthProblem(ofName name: String) -> String? {
    var separators = 0
    var previousWasColon = false
    for byte in name.utf8 {
      if byte == UInt8(ascii: ":") {
        if previousWasColon {
          separators += 1
          previousWasColon = false
          continue
        }
        previousWasColon = true
      } else {
        previousWasColon = false
      }
    }
    guard separators >= maximumLevels else { return nil }
    let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
    return
      "deck name '\(shown)' has \(separators + 1) levels; deckport takes deck names of at most \(maximumLevels) levels"
  }

  /// Throws for the first of `decks` whose name has more than ``maximumLevels`` levels.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` naming the deck at `location`.
  package static func checkDepth(of decks: [Deck], at location: SourceLocation) throws {
    for deck in decks {
      if let problem = depthProblem(ofName: deck.name) {
        throw DeckError(.corrupt, at: location.item("deck \(deck.id)"), problem)
      }
    }
  }
}

/// The settings of a filtered deck.
public struct FilteredDeck: Sendable, Equatable {
  /// One search that fills the deck.
  public struct SearchTerm: Sendable, Equatable {
    /// The search text.
    public var search: String
    /// How many cards it gathers at most.
    public var limit: Int
    /// Anki's order code for the gathered cards.
    public var order: Int

    /// Creates a search term.
    public init(search: String, limit: Int, order: Int) {
      self.search = search
      self.limit = limit
      self.order = order
    }
  }

  /// Whether answers in the filtered deck reschedule the cards.
  public var reschedule: Bool
  /// The searches, in order.
  public var searchTerms: [SearchTerm]

  /// Creates filtered-deck settings.
  public init(reschedule: Bool, searchTerms: [SearchTerm]) {
    self.reschedule = reschedule
    self.searchTerms = searchTerms
  }
}
