import DeckCore

extension DeckError {
  /// Whether this is a strict conversion's failure, which carries its warnings
  /// (``DeckError/diagnostics``).
  var isStrictFailure: Bool { kind == .notFaithful && !diagnostics.isEmpty }

  /// A strict conversion's failure as the command shows it once it has listed the warnings
  /// itself, `--strict: 7 warnings (listed above); nothing was written`, instead of the
  /// library's line, which names the first of them again; any other error as it is. `listed`
  /// says where the list is (`above`, `below`).
  func shownAfterItsWarnings(listed: String = "above") -> DeckError {
    guard isStrictFailure else { return self }
    var copy = self
    copy.message =
      "\(DeckSetting.strict.flag): \(CountedNoun.phrase(diagnostics.count, "warning")) (listed \(listed)); nothing was written"
    return copy
  }
}
