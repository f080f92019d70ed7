import DeckCore

/// The lines of the rows a warning is about, kept small however many there are: how many, and
/// the first five, which the warning names (`lines 3, 5, 9, 12, 15 and 40 more`).
package struct CSVLineSample: Sendable, Equatable {
  /// How many lines.
  package private(set) var count = 0
  /// The first five, in the order added.
  package private(set) var lines: [Int] = []

  /// Counts `line`, unless it is the line counted last (a row that gives several reasons is one
  /// line).
  package mutating func add(_ line: Int) {
    guard line != lastAdded else { return }
    lastAdded = line
    count += 1
    if lines.count < 5 { lines.append(line) }
  }

  /// `other`'s lines after these: the count of both, and the first five of both.
  package mutating func append(_ other: CSVLineSample) {
    count += other.count
    lines = Array((lines + other.lines).prefix(5))
    lastAdded = other.lastAdded ?? lastAdded
  }

  /// `line 3` or `lines 3, 5, 9, 12, 15 and 40 more`.
  package var listed: String {
    CountedNoun.noun("line", for: count) + " " + ShortList.text(lines.map(String.init), total: count)
  }

  /// The line counted last.
  private var lastAdded: Int?

  /// No lines.
  package init() {}
}
