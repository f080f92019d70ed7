import DeckCore

/// Collects the writer's warnings. Categories that could repeat once per note are listed one by
/// one up to a limit and then summed up, so a deck of 50,000 notes cannot flood the output;
/// every other category (media files, note types, decks) is listed in full.
struct DiagnosticLog {
  /// How many warnings of a limited category are listed one by one.
  static let listedPerCategory = 20

  private(set) var warnings: [Diagnostic] = []
  private var counts: [Diagnostic.Category: Int] = [:]
  private var summaryLocation: [Diagnostic.Category: SourceLocation] = [:]

  /// Records a warning that is always listed.
  mutating func report(_ category: Diagnostic.Category, at location: SourceLocation, _ message: String) {
    warnings.append(Diagnostic(category, at: location, message))
  }

  /// Records a warning of a category that may repeat for many rows.
  mutating func reportLimited(
    _ category: Diagnostic.Category, at location: SourceLocation, summaryAt summary: SourceLocation,
    _ message: String
  ) {
    counts[category, default: 0] += 1
    summaryLocation[category] = summary
    if counts[category, default: 0] <= Self.listedPerCategory {
      warnings.append(Diagnostic(category, at: location, message))
    }
  }

  /// Appends warnings made elsewhere.
  mutating func append(contentsOf other: [Diagnostic]) {
    warnings += other
  }

  /// The warnings, with a summary line for each limited category that went over the limit.
  func finished() -> [Diagnostic] {
    var result = warnings
    for (category, count) in counts.sorted(by: { $0.key < $1.key }) where count > Self.listedPerCategory {
      let location = summaryLocation[category] ?? SourceLocation(file: "")
      result.append(
        Diagnostic(
          category, at: location, "\(count - Self.listedPerCategory) more warnings of this kind were not listed"))
    }
    return result
  }
}
