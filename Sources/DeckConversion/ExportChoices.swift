import DeckCore

/// What of its input a conversion keeps: the choices of Anki's export dialog ("Include:" a deck,
/// or the notes a search finds, here by deck and tag; scheduling information, deck presets,
/// media), each as Anki's export makes it.
///
/// ```swift
/// let choices = ExportChoices(onlyDecks: ["Spanish"], scheduling: false)
/// try DeckConverter().convert(input: "collection.colpkg", output: "Spanish.apkg",
///                             options: ConversionOptions(choices: choices))
/// ```
public struct ExportChoices: Sendable, Equatable {
  /// Only these decks, each with its subdecks, as Anki's search `deck:NAME` takes each
  /// (``DeckSearch``: wildcards, `*`, `filtered`;
  /// ``DeckCollection/selectingNotes(inDecks:taggedWith:spelling:at:)``); empty for every deck.
  public var onlyDecks: [String]
  /// Only the notes with one of these tags or a subtag of it (``TagSearch``), of the decks
  /// ``onlyDecks`` keeps; empty for every note.
  public var onlyTags: [String]
  /// Whether the scheduling stays (``DeckCollection/withoutScheduling()`` when not).
  public var scheduling: Bool
  /// Whether the option groups stay (``DeckCollection/withoutDeckPresets()`` when not).
  public var deckPresets: Bool
  /// Whether the media files stay (``DeckCollection/withoutMedia()`` when not).
  public var media: Bool

  /// Choices that keep everything unless told otherwise.
  public init(
    onlyDecks: [String] = [], onlyTags: [String] = [], scheduling: Bool = true, deckPresets: Bool = true,
    media: Bool = true
  ) {
    self.onlyDecks = onlyDecks
    self.onlyTags = onlyTags
    self.scheduling = scheduling
    self.deckPresets = deckPresets
    self.media = media
  }

  /// Whether these choices keep the whole input.
  public var keepsEverything: Bool { onlyDecks.isEmpty && onlyTags.isEmpty && scheduling && deckPresets && media }

  /// `collection` as these choices keep it, and, with ``onlyDecks`` or ``onlyTags``, what the
  /// selection kept: its ``DeckSelection/kept`` counts what is left once the other choices are
  /// applied too (no reviews without ``scheduling``, no media files without ``media``), so that
  /// its line says what a conversion writes. Deck names and tags are searched as Anki holds
  /// them when it holds them as `spelling` says (``AnkiNameSpelling``).
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` for a deck name or search no
  ///   deck matches, or a tag no note has.
  public func applied(
    to collection: DeckCollection, spelling: AnkiNameSpelling = .imported, at location: SourceLocation
  ) throws -> (
    collection: DeckCollection, selection: DeckSelection?
  ) {
    var result = collection
    var selection: DeckSelection?
    if !onlyDecks.isEmpty || !onlyTags.isEmpty {
      (result, selection) = try collection.selectingNotes(
        inDecks: onlyDecks, taggedWith: onlyTags, spelling: spelling, at: location)
    }
    if !scheduling { result = result.withoutScheduling() }
    if !deckPresets { result = result.withoutDeckPresets() }
    if !media { result = result.withoutMedia() }
    selection?.kept = DeckSelection.Counts(result)
    return (result, selection)
  }
}
