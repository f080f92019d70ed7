import DeckCore

/// A deck cell as Anki's CSV importer reads it: a cell that is a whole number (as Rust parses an
/// `i64`: an optional sign and ASCII digits, nothing around them) names a deck by its id, and
/// the row is skipped when no deck has it (1 is Default); any other cell names a deck, which
/// Anki stores under its normalised name (``Deck/storedName(_:)``). No spelling of a number
/// reaches Anki as a name: Anki looks a cell up as it is and normalises only a deck it creates,
/// so ` 2024` would make a new deck (`2024+`) for each row.
enum CSVDeckCell {
  /// Whether Anki's importer takes `cell` for a deck id.
  static func isDeckID(_ cell: String) -> Bool { Int64(cell) != nil }

  /// A warning for the decks, among those rows name, whose names Anki's importer takes for
  /// deck ids, with how many notes name them; nil when none is.
  static func deckIDWarning(_ noteCounts: [String: Int], location: SourceLocation) -> Diagnostic? {
    let numbered = noteCounts.filter { isDeckID($0.key) }.sorted { $0.key < $1.key }
    guard !numbered.isEmpty else { return nil }
    let notes = numbered.reduce(0) { $0 + $1.value }
    return Diagnostic(
      .csvDeckID, at: location,
      "\(numbered.count == 1 ? "the deck" : "the decks") \(ShortList.quoted(numbered.map(\.key))) \(numbered.count == 1 ? "is" : "are") named by a number, which Anki's CSV importer takes for a deck's id, not a name: it files \(notes == 1 ? "the note" : "their \(notes) notes") in the deck with that id (1 is Default) or skips \(notes == 1 ? "it" : "them"); rename \(numbered.count == 1 ? "the deck" : "them"), or convert to a deck package, which keeps the name"
    )
  }

  /// Each deck's name as Anki's import stores it (``Deck/storedName(_:)``), by id, and a
  /// `[deck-renamed]` warning for each deck whose name that changes.
  static func storedNames(of decks: [Deck], location: SourceLocation) -> (names: [Int64: String], renamed: [Diagnostic])
  {
    var names: [Int64: String] = [:]
    var renamed: [Diagnostic] = []
    for deck in decks where names[deck.id] == nil {
      let stored = Deck.storedName(deck.name)
      names[deck.id] = stored
      if !stored.unicodeScalars.elementsEqual(deck.name.unicodeScalars) {
        renamed.append(
          Diagnostic(
            .deckRenamed, at: location.item("deck '\(MediaFileName.visible(deck.name))' (id \(deck.id))"),
            "\(Deck.storedNameRule); its rows name it '\(MediaFileName.visible(stored))', as Anki's import would store it"
          ))
      }
    }
    return (names, renamed)
  }
}
