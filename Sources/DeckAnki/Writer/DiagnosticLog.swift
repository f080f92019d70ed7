import DeckCore

/// Collects the writer's warnings. Categories that could repeat once per note are listed one by
/// one up to a limit and then summed up, so a deck of 50,000 notes cannot flood the output;
/// every other category (media files, note types, decks) is listed in full. The counting is
/// ``CappedWarnings``'s, as everywhere else.
struct DiagnosticLog {
  /// How many warnings of a limited category are listed one by one.
  static let listedPerCategory = 20

  private var warnings = CappedWarnings(location: SourceLocation(file: ""), listedPerCategory: listedPerCategory)

  /// Records a warning that is always listed.
  mutating func report(_ category: Diagnostic.Category, at location: SourceLocation, _ message: String) {
    warnings.append(contentsOf: [Diagnostic(category, at: location, message)])
  }

  /// Records a warning of a category that may repeat for many rows; the warning counting those
  /// not listed points at `summary`.
  mutating func reportLimited(
    _ category: Diagnostic.Category, at location: SourceLocation, summaryAt summary: SourceLocation,
    _ message: String
  ) {
    warnings.report(category, at: location, summaryAt: summary, message)
  }

  /// Where warnings made later on another thread go to keep their turn (``insert(contentsOf:at:)``).
  var position: Int { warnings.listedCount }

  /// Puts `other`, made on another thread, where the log stood at `position`.
  mutating func insert(contentsOf other: [Diagnostic], at position: Int) {
    warnings.insert(contentsOf: other, at: position)
  }

  /// Appends warnings made elsewhere.
  mutating func append(contentsOf other: [Diagnostic]) {
    warnings.append(contentsOf: other)
  }

  /// The warnings, with a summary line for each limited category that went over the limit.
  func finished() -> [Diagnostic] {
    warnings.finished()
  }
}
