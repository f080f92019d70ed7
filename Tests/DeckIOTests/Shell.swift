import Foundation

/// Runs shell commands for tests that cross-check against standard tools (`zstd`, `sha1sum`,
/// `unzip`).
enum Shell {
  /// Whether `tool` is on the PATH.
  static func has(_ tool: String) -> Bool {
    (try? run("command -v \(tool)").status) == 0
  }

  /// Runs `command` with `/bin/sh -c`, feeding it `input`, and returns its exit status and
  /// standard output.
  @discardableResult
  static func run(_ command: String, input: Data? = nil) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let input {
      let writer = inputPipe.fileHandleForWriting
      // Write on another thread so a large input cannot deadlock against a full output pipe.
      let thread = Thread {
        try? writer.write(contentsOf: input)
        try? writer.close()
      }
      thread.start()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
  }

  /// `count` pseudo-random bytes from a fixed seed, so failures reproduce.
  static func randomBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return Data(bytes)
  }
}
