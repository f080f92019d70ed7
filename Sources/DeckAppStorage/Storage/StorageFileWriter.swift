import DeckCore

/// Writes records as one storage kind: the complete new file at a path it is given (a
/// temporary file beside the destination, or a scratch file for a dry run), and the check that
/// a file at a path holds exactly what was meant.
protocol StorageFileWriter {
  /// Where the records go, for the report.
  var place: String { get }
  /// What changed type or had to be supplied.
  var warnings: [Diagnostic] { get }
  /// Writes the complete new file at `path`.
  mutating func produce(at path: String) throws
  /// Reads the file at `path` and throws unless it holds the records (count and content) and
  /// everything else the destination held.
  func verify(at path: String) throws
}

extension StorageFileWriter {
  /// Throws a verification failure naming the first difference, when there is one.
  func requireEqual(expected: [AppRecord], actual: [AppRecord], labels: (Int) -> String, at location: SourceLocation) throws {
    if let difference = AppRecordComparison.firstDifference(expected: expected, actual: actual, labels: labels) {
      throw DeckError(.writeFailed, at: location, "verification failed: \(difference)")
    }
  }
}
