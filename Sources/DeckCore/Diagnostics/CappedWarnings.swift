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

  /// Creates an empty list.
  package init(location: SourceLocation, listedPerCategory: Int) {
    self.location = location
    self.listedPerCategory = listedPerCategory
  }

  /// Records a warning; it is listed only while its category has had at most
  /// `listedPerCategory`.
  package mutating func report(_ category: Diagnostic.Category, at place: SourceLocation, _ message: String) {
    counts[category, default: 0] += 1
    if counts[category, default: 0] <= listedPerCategory {
      listed.append(Diagnostic(category, at: place, message))
    }
  }

  /// The listed warnings, then one per category that had more, counting the rest (categories
  /// in name order).
  package func finished() -> [Diagnostic] {
    listed
      + counts.sorted { $0.key < $1.key }.filter { $0.value > listedPerCategory }.map {
        Diagnostic($0.key, at: location, "\($0.value - listedPerCategory) more warnings of this kind were not listed")
      }
  }
}
