import DeckCore

/// A report about a deck that can also be made of the part of it some of its decks and tags
/// choose, as Anki's export of them holds it: ``DeckSummary`` (`deckport inspect`) and
/// ``CardPreview`` (`deckport render`).
///
/// ```swift
/// let deck = try DeckLoader().load(path: "French.apkg")
/// let verbs = try DeckSummary(deck, onlyDecks: ["French::Verbs"], at: SourceLocation(file: "French.apkg"))
/// print(verbs.notes, "of", verbs.selection?.read.notes ?? 0, "notes")
/// ```
public protocol DeckPartReport {
  /// The report of the whole deck.
  init(_ deck: LoadedDeck)
  /// With a part chosen: the decks and tags the report is of, and how much of the deck they
  /// hold; nil for the whole deck.
  var selection: DeckSelection? { get set }
}

extension DeckPartReport {
  /// The report of the part of `deck` that its decks `onlyDecks` (each with its subdecks) and
  /// the notes tagged `onlyTags` (``TagSearch``) are, as
  /// ``DeckCollection/selectingNotes(inDecks:taggedWith:spelling:at:)`` keeps it, Anki's export of them.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` for a name no deck has, or a tag
  ///   no note has.
  public init(_ deck: LoadedDeck, onlyDecks: [String], onlyTags: [String] = [], at location: SourceLocation) throws {
    let (part, selection) = try deck.selectingNotes(inDecks: onlyDecks, taggedWith: onlyTags, at: location)
    self.init(part)
    self.selection = selection
  }
}
