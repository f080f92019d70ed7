import Foundation

/// Runs a short Python program (`python3 -c`) for tests that let Python's own libraries judge
/// what deckport wrote.
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
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
