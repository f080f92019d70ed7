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
  /// Puts files that belong beside the new file in place (after it was verified, before it
  /// replaces the destination); returns their paths, removed again if that fails.
  func placeCompanionFiles() throws -> [String]
  /// Removes files beside the destination that the new file no longer needs (after it is in
  /// place and verified), unless a backup of the old file was made, which needs them.
  func discardReplacedCompanionFiles()
}

extension StorageFileWriter {
  /// Most kinds are a single file.
  func placeCompanionFiles() throws -> [String] { [] }

  /// Most kinds are a single file.
  func discardReplacedCompanionFiles() {}

  /// Runs `write`, which makes the new file; its failure becomes a write failure at `location`.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` `cannot write the file (…)`.
  func writingFile(at location: SourceLocation, _ write: () throws -> Void) throws {
    do {
      try write()
    } catch {
      throw DeckError(.writeFailed, at: location, "cannot write the file (\(error.localizedDescription))")
    }
  }

  /// Throws a verification failure naming the first difference, when there is one.
  func requireEqual(expected: [AppRecord], actual: [AppRecord], labels: (Int) -> String, at location: SourceLocation)
    throws
  {
    if let difference = AppRecordComparison.firstDifference(expected: expected, actual: actual, labels: labels) {
      throw DeckError(.writeFailed, at: location, "verification failed: \(difference)")
    }
  }
}
