import DeckCore

extension FormatName {
  /// A CrowdAnki folder: `deck.json` and `media/`.
  public static let crowdanki: FormatName = "crowdanki"
}

/// CrowdAnki folders (`crowdanki`), recognised by their deck file (`CrowdAnkiFolder`): read
/// with `CrowdAnkiReader`, written with `CrowdAnkiWriter`.
public struct CrowdAnkiFormat: ReaderWriterFormat {
  public let description = FormatDescription(
    name: .crowdanki,
    summary: "a CrowdAnki folder: deck.json with nested decks, note models and option groups, and media/ (a folder)",
    reads: true, writes: true,
    cannotHold: [
      "scheduling", "review log", "card flags", "filtered decks", "deletion records",
      "collection settings", "the collection's list of tags",
      CrowdAnkiProperties.leftOutExamples, "the times notes and note types were last changed",
      "several top-level decks (they become subdecks of one root deck)", "one note's cards in several decks",
    ],
    // Ids are derived from the crowdanki_uuids, so decks and note types are matched by name.
    holds: Set(DeckAspect.allCases).subtracting([
      .identities, .scheduling, .reviews, .deletions, .settings, .tagRegistry, .ankiProperties, .modificationTimes,
      .unusedItems,
    ]),
    holdsInPart: [
      .ankiProperties:
        "what CrowdAnki's export writes (a deck's own limits, a note model's last tags), not \(CrowdAnkiProperties.leftOutExamples)"
    ],
    layout: .folder)

  /// The format.
  public init() {}

  /// A folder whose deck file holds a JSON object.
  public func recognizes(path: String) -> Bool { CrowdAnkiFolder.looksLikeCrowdAnki(path: path) }

  /// The folder's reader.
  package func reader(_ context: FormatReadContext) -> CrowdAnkiReader { CrowdAnkiReader() }

  /// The folder's writer, which puts the deck file and media into the (new, empty) folder at the
  /// path it is given.
  package func writer(_ context: FormatWriteContext) -> CrowdAnkiWriter { CrowdAnkiWriter() }
}
