import DeckCore

/// What of its input a conversion keeps: the choices of Anki's export dialog ("Include:" a deck,
/// scheduling information, deck presets, media), each as Anki's export makes it.
///
/// ```swift
/// let choices = ExportChoices(onlyDecks: ["Spanish"], scheduling: false)
/// try DeckConverter().convert(input: "collection.colpkg", output: "Spanish.apkg",
///                             options: ConversionOptions(choices: choices))
/// ```
public struct ExportChoices: Sendable, Equatable {
  /// Only these decks, each with its subdecks (``DeckCollection/selectingDecks(named:at:)``);
  /// empty for every deck.
  public var onlyDecks: [String]
  /// Whether the scheduling stays (``DeckCollection/withoutScheduling()`` when not).
  public var scheduling: Bool
  /// Whether the option groups stay (``DeckCollection/withoutDeckPresets()`` when not).
  public var deckPresets: Bool
  /// Whether the media files stay (``DeckCollection/withoutMedia()`` when not).
  public var media: Bool

  /// Choices that keep everything unless told otherwise.
  public init(onlyDecks: [String] = [], scheduling: Bool = true, deckPresets: Bool = true, media: Bool = true) {
    self.onlyDecks = onlyDecks
    self.scheduling = scheduling
    self.deckPresets = deckPresets
    self.media = media
  }

  /// Whether these choices keep the whole input.
  public var keepsEverything: Bool { onlyDecks.isEmpty && scheduling && deckPresets && media }

  /// `collection` as these choices keep it, and, with ``onlyDecks``, what the selection kept.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` for a deck name the collection
  ///   lacks.
  public func applied(to collection: DeckCollection, at location: SourceLocation) throws -> (
    collection: DeckCollection, selection: DeckSelection?
  ) {
    var result = collection
    var selection: DeckSelection?
    if !onlyDecks.isEmpty { (result, selection) = try collection.selectingDecks(named: onlyDecks, at: location) }
    if !scheduling { result = result.withoutScheduling() }
    if !deckPresets { result = result.withoutDeckPresets() }
    if !media { result = result.withoutMedia() }
    return (result, selection)
  }
}
