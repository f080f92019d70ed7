import Foundation

/// Runs a short Python program (`python3 -c`) for tests that let Python's own libraries judge
/// what deckport wrote, and the judging scripts under `fixtures/` with the real Anki backend.
public enum PythonScript {
  /// A run that ended with a non-zero exit status.
  public struct Failure: Error, CustomStringConvertible {
    /// The exit status.
    public var status: Int32
    /// What the script wrote to standard error.
    public var standardError: String

    /// "python3 failed (status 1): …".
    public var description: String { "python3 failed (status \(status)): \(standardError)" }
  }

  /// Runs `python3 -c script arguments…` and returns its standard output.
  ///
  /// - Throws: ``Failure`` when the script exits with a non-zero status, or the error of
  ///   starting the process.
  @discardableResult
  public static func run(_ script: String, _ arguments: [String] = []) throws -> String {
    try run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments)
  }

  /// The Python of `.venv`, where `scripts/python-env.sh` installs the real Anki backend (the
  /// `anki` wheel from PyPI); `scripts/test.sh` makes it before the Swift suite runs.
  public static let ankiPython = Fixtures.root.appendingPathComponent(".venv/bin/python")

  /// Whether `.venv` holds the real Anki backend.
  public static var hasAnkiBackend: Bool {
    FileManager.default.isExecutableFile(atPath: ankiPython.path)
      && (try? run(ankiPython, ["-c", "import anki"])) != nil
  }

  /// Runs the script `fixtures/<script>` with `.venv`'s Python (the real Anki backend) and
  /// returns its standard output.
  ///
  /// - Throws: ``Failure`` when the script exits with a non-zero status.
  public static func runWithAnki(_ script: String, _ arguments: [String]) throws -> String {
    try run(ankiPython, [Fixtures.path(script)] + arguments)
  }

  private static func run(_ executable: URL, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(status: process.terminationStatus, standardError: String(decoding: errorData, as: UTF8.self))
    }
    return String(decoding: data, as: UTF8.self)
  }
}
