import Foundation

/// The result of running the `deckport` executable.
public struct CommandRun: Sendable {
  /// The exit status.
  public var status: Int32
  /// Everything written to standard output.
  public var standardOutput: String
  /// Everything written to standard error.
  public var standardError: String

  /// Runs the built `deckport` with `arguments` and waits for it.
  public static func deckport(_ arguments: [String]) throws -> CommandRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Fixtures.deckportExecutable)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read both pipes before waiting, so a large output cannot fill a pipe and block the child.
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandRun(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }
}
