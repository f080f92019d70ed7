/// Warnings of categories that may repeat for many rows (a check or repair per note or card):
/// the first few of each category are listed one by one, the rest counted in one warning per
/// category at the end.
///
/// ```swift
/// var warnings = CappedWarnings(location: location, listedPerCategory: 20)
/// warnings.report(.orphanCard, at: row, "card belongs to note 7, which does not exist")
/// let all = warnings.finished()
/// ```
package struct CappedWarnings: Sendable {
  /// Where the counting warnings point (the file or table as a whole).
  package let location: SourceLocation
  /// How many warnings of one category are listed before the rest are counted.
  package let listedPerCategory: Int
  private var listed: [Diagnostic] = []
  private var counts: [Diagnostic.Category: Int] = [:]
  private var summaryLocations: [Diagnostic.Category: SourceLocation] = [:]

  /// Creates an empty list.
  package init(location: SourceLocation, listedPerCategory: Int) {
    self.location = location
    self.listedPerCategory = listedPerCategory
  }

  /// Records a warning; it is listed only while its category has had at most
  /// `listedPerCategory`. The warning counting the rest points at `summary` when given (the
  /// last one given for the category), else at ``location``.
  package mutating func report(
    _ category: Diagnostic.Category, at place: SourceLocation, summaryAt summary: SourceLocation? = nil,
    _ message: String
  ) {
    counts[category, default: 0] += 1
    if let summary { summaryLocations[category] = summary }
    if counts[category, default: 0] <= listedPerCategory {
      listed.append(Diagnostic(category, at: place, message))
    }
  }

  /// How many warnings are listed so far: the place of warnings to be put in their turn later
  /// (``insert(contentsOf:at:)``).
  package var listedCount: Int { listed.count }

  /// Lists `warnings` in full where the list stood at `listedCount` (``listedCount``): warnings
  /// made on another thread, in the turn their check had when the steps ran one after another.
  package mutating func insert(contentsOf warnings: [Diagnostic], at listedCount: Int) {
    listed.insert(contentsOf: warnings, at: min(max(listedCount, 0), listed.count))
  }

  /// Lists `warnings` in full, in their turn among the others: warnings of a kind that cannot
  /// repeat for every row (a media file, a note type, a deck), or counted already.
  package mutating func append(contentsOf warnings: [Diagnostic]) {
    listed += warnings
  }

  /// The listed warnings, then one per category that had more, counting the rest (categories
  /// in name order).
  package func finished() -> [Diagnostic] {
    listed
      + counts.sorted { $0.key < $1.key }.filter { $0.value > listedPerCategory }.map {
        Diagnostic(
          $0.key, at: summaryLocations[$0.key] ?? location,
          "\($0.value - listedPerCategory) more warnings of this kind were not listed")
      }
  }
}
