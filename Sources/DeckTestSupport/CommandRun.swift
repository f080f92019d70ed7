import Foundation

/// The result of running the `deckport` executable.
public struct CommandRun: Sendable {
  /// The exit status.
  public var status: Int32
  /// Everything written to standard output.
  public var standardOutput: String
  /// Everything written to standard error.
  public var standardError: String

  /// Runs the built `deckport` with `arguments` (and `environment` added to this process's
  /// own) and waits for it; `standardInput`, when given, is what it reads on standard input
  /// (else it inherits this process's).
  public static func deckport(
    _ arguments: [String], environment: [String: String] = [:], standardInput: Data? = nil
  ) throws -> CommandRun {
    try run(deckportProcess(arguments, environment: environment), standardInput: standardInput)
  }

  /// Runs `process` with pipes for its output and error (and its input, with `standardInput`)
  /// until it exits.
  static func run(_ process: Process, standardInput: Data? = nil) throws -> CommandRun {
    let output = Pipe()
    let error = Pipe()
    let input = standardInput.map { _ in Pipe() }
    process.standardOutput = output
    process.standardError = error
    if let input { process.standardInput = input }
    try process.run()
    if let input, let standardInput {
      // Written on its own thread, so a child that writes before it has read everything cannot
      // block both sides.
      Thread.detachNewThread {
        try? input.fileHandleForWriting.write(contentsOf: standardInput)
        try? input.fileHandleForWriting.close()
      }
    }
    // Both pipes are read to their ends before waiting, at once (the error on its own thread), so
    // that neither can fill up and block a child that writes much to one while the other is read.
    let errorData = ErrorReading(error.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    return finished(process, output: outputData, error: errorData.wait())
  }
}

/// A pipe read to its end on a thread of its own.
private final class ErrorReading: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var data = Data()

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  /// The bytes read, once the pipe has ended.
  func wait() -> Data {
    done.wait()
    return data
  }
}

extension CommandRun {
  /// Runs the built `deckport` with `arguments` as the user `nobody` when this process is root
  /// (through `setpriv`), else as this process's user: for a check that needs a file its user
  /// may not read, which root always may.
  public static func deckportWithoutRoot(_ arguments: [String]) throws -> CommandRun {
    guard geteuid() == 0 else { return try deckport(arguments) }
    let process = deckportProcess(arguments, environment: [:])
    process.arguments =
      ["--reuid=nobody", "--regid=nogroup", "--clear-groups", Fixtures.deckportExecutable] + arguments
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    return try run(process)
  }

  /// The built `deckport`, not yet started, with `arguments` and `environment` added to this
  /// process's own.
  static func deckportProcess(_ arguments: [String], environment: [String: String]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Fixtures.deckportExecutable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    return process
  }

  /// The result of `process` once it has exited, which wrote `output` and `error`.
  static func finished(_ process: Process, output: Data, error: some Collection<UInt8>) -> CommandRun {
    process.waitUntilExit()
    return CommandRun(
      status: process.terminationStatus,
      standardOutput: String(decoding: output, as: UTF8.self),
      standardError: String(decoding: error, as: UTF8.self))
  }
}

#if canImport(Glibc)
import Glibc

// The pseudo-terminal calls of the C library, which Swift's Glibc module does not import
// (they sit behind _XOPEN_SOURCE). Their arguments are plain integers and pointers.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("posix_openpt") private func posix_openpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantpt(_ descriptor: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockpt(_ descriptor: Int32) -> Int32
@_silgen_name("ptsname") private func ptsname(_ descriptor: Int32) -> UnsafeMutablePointer<CChar>?

extension CommandRun {
  /// Runs the built `deckport` with its standard error on a pseudo-terminal (standard output
  /// stays a pipe), as when a person runs it in a terminal, and returns everything the
  /// terminal received as `standardError`.
  public static func deckportOnTerminal(_ arguments: [String], environment: [String: String] = [:]) throws
    -> CommandRun
  {
    let controller = posix_openpt(O_RDWR | O_NOCTTY)
    guard controller >= 0, grantpt(controller) == 0, unlockpt(controller) == 0, let name = ptsname(controller)
    else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no pseudo-terminal"]) }
    let terminal = open(name, O_RDWR | O_NOCTTY)
    guard terminal >= 0 else {
      close(controller)
      throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot open \(String(cString: name))"])
    }
    defer { close(controller) }

    let process = deckportProcess(arguments, environment: environment)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
    do {
      try process.run()
    } catch {
      close(terminal)
      throw error
    }
    close(terminal)  // the child holds its own copy; reading ends when it exits

    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      received += buffer[..<count]
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    return finished(process, output: outputData, error: received)
  }
}
#endif
