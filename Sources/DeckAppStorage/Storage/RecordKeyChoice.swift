import DeckCore

/// Which key of a file's top-level object or dictionary holds the records, when the options named
/// none (``AppStorageOptions/key``): the one key whose value looks like records.
enum RecordKeyChoice {
  /// `named` when the user named a key; otherwise the only one of `candidates`.
  ///
  /// - Parameters:
  ///   - what: what the candidates' values hold, for the message ("records").
  ///   - noneFound: the message when no key is a candidate.
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` when no key or several keys are
  ///   candidates.
  static func key(
    _ named: String?, candidates: @autoclosure () -> [String], holding what: String,
    noneFound: @autoclosure () -> DeckMessage, at location: SourceLocation
  ) throws -> String {
    if let named { return named }
    let candidates = candidates()
    if candidates.count > 1 { throw severalKeys(candidates, holding: what, at: location) }
    guard let only = candidates.first else { throw DeckError(.invalidRequest, at: location, noneFound()) }
    return only
  }

  /// The error for a file in which several keys hold `what` and the user named none of them.
  static func severalKeys(_ candidates: [String], holding what: String, at location: SourceLocation) -> DeckError {
    DeckError(
      .invalidRequest, at: location,
      "several keys hold \(what) (\(NameLookup.listed(candidates))); name one with \(setting: .recordKey)"
    )
  }
}
