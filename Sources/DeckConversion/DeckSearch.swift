import DeckCore

/// A deck as Anki's search `deck:TEXT` takes it (`write_deck` in
/// `rslib/src/search/sqlwriter.rs`): a card matches when its deck, or the deck it was taken from
/// into a filtered deck, is `TEXT` or a subdeck of it (`TEXT::…`), ignoring case. `*` stands for
/// any run of characters (`::` too) and `_` for one (`\*` and `\_` for the characters
/// themselves, `\:`, `\(`, `\)`, `\-` and `\"` for theirs, as Anki's parser reads them); its
/// white space of every kind is a space, as Anki's parser makes it before reading a search (a
/// tab or U+3000 in `TEXT` finds no deck named with one), and each level of `TEXT` is then taken
/// as Anki takes a deck name's (in NFC, without control characters, trimmed of white space and
/// `:`, `blank` when nothing is left). `*` alone finds every card and `filtered` the cards in
/// filtered decks; a name without wildcards is that deck, exactly.
///
/// A deck's name is compared as Anki holds it (``AnkiNameSpelling``): as its import stores it,
/// or, in a collection package it restores as it is, as the file spells it, so that
/// `Spanish` does not find a deck restored as ` Spanish `, as Anki's search does not.
///
/// `current` (Anki's search for the deck chosen in its window) is refused: a file has no deck
/// its reader has chosen. A deck named so is found with another case (`Current`).
///
/// ```swift
/// let french = try DeckSearch("lang*::fr_nch")
/// french.matches(deck: Deck(id: 2, name: "Languages::French::Verbs"))  // true
/// ```
public struct DeckSearch: Sendable, Equatable {
  /// The text as given.
  public let text: String
  /// Whether `text` is a search for several names (it holds a wildcard, or is `*` or
  /// `filtered`) rather than one deck's name.
  public let isPattern: Bool
  private let kind: Kind

  private enum Kind: Sendable, Equatable {
    /// `*`: every card, whatever its deck.
    case everyCard
    /// `filtered`: the cards in a filtered deck.
    case filteredCards
    /// Matches a deck's name, levels separated by U+001F as Anki keeps them, or a subdeck's.
    case pattern(AnkiSearchPattern)
  }

  /// The search for `text`.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` when `text` is empty, or is
  ///   `current`.
  public init(_ text: String, at location: SourceLocation = SourceLocation(file: "")) throws {
    self.text = text
    switch text {
    case "":
      throw DeckError(.invalidRequest, at: location, "a deck to search for is empty")
    case "current":
      throw DeckError(
        .invalidRequest, at: location,
        "'current' is Anki's search for the deck chosen in its window, which a file does not have; "
          + "name the deck instead (a deck named 'current' is found as 'Current')")
    case "*":
      kind = .everyCard
      isPattern = true
    case "filtered":
      kind = .filteredCards
      isPattern = true
    default:
      let spaced = String(
        String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.isWhitespace ? " " : $0 }))
      let levels = Deck.storedLevels(of: AnkiSearchPattern.unescaped(spaced))
      let pattern = AnkiSearchPattern(levels: levels, separator: Self.nativeSeparator, wildcard: .anyButLineFeed)
      isPattern = pattern.isGlob
      kind = .pattern(pattern)
    }
  }

  /// Whether the search finds the cards of this deck (every deck for `*`, the filtered decks
  /// for `filtered`): the deck is the searched one or a subdeck of it, its name compared as Anki
  /// holds it when it holds the names `spelling` says (by default, as its import stores them).
  public func matches(deck: Deck, spelling: AnkiNameSpelling = .imported) -> Bool {
    switch kind {
    case .everyCard: return true
    case .filteredCards:
      if case .filtered = deck.kind { return true }
      return false
    case .pattern(let pattern):
      // The deck's name as Anki holds it: a package may hold a name Anki's import stores
      // otherwise (genanki writes `Spanish :: Verbs` as given; Anki shows `Spanish::Verbs`),
      // while its restore of a collection package keeps the name as it is.
      let levels = spelling.keepsDeckNames ? Deck.levels(of: deck.name) : Deck.storedLevels(of: deck.name)
      let native = levels.map(\.unicodeScalars).joined(separator: [Self.nativeSeparator])
      return pattern.matchesNameOrChild(Array(native))
    }
  }

  /// Whether the search finds `card`, given the ids of the decks it matches
  /// (``matches(deck:)``): one of them holds the card or is where a filtered deck took it from.
  func finds(_ card: Card, matchingDecks deckIDs: Set<Int64>) -> Bool {
    switch kind {
    case .everyCard: return true
    case .filteredCards: return card.scheduling.originalDeckID != 0
    case .pattern:
      let original = card.scheduling.originalDeckID
      return deckIDs.contains(card.deckID) || (original != 0 && deckIDs.contains(original))
    }
  }

  /// What separates a deck name's levels where Anki keeps it (its native name).
  private static let nativeSeparator: Unicode.Scalar = "\u{1f}"
}
