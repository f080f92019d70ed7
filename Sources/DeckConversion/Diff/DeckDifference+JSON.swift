extension DeckDifference {
  /// The difference as one JSON object (`ReportJSON`: keys sorted, every string exact and safe
  /// on a terminal): `from` and `to` (`name`, `format`), `equal`, `counts`, `notCompared`
  /// (`aspect`, `formats`, `explanation`), and `notes`, `noteTypes`, `decks`, `tags`,
  /// `scheduling`, `reviews`, `media`, each with its `added`, `removed` and `changed` (`renamed`
  /// for decks) lists, and `ankiImport` (``AnkiImportPreview``) where both formats hold what it
  /// takes.
  public func jsonText() throws -> String {
    try ReportJSON.text(self)
  }

  /// Only the counts, as one JSON object: `from`, `to`, `equal`, `counts`, `notCompared` and
  /// `ankiImport` (its counts alone), as in ``jsonText()``.
  public func statJSONText() throws -> String {
    struct Stat: Encodable {
      var from: Side
      var to: Side
      var equal: Bool
      var counts: Counts
      var notCompared: [NotCompared]
      var ankiImport: AnkiImportCounts?
    }
    return try ReportJSON.text(
      Stat(from: from, to: to, equal: isEmpty, counts: counts, notCompared: notCompared, ankiImport: ankiImport?.counts)
    )
  }
}
