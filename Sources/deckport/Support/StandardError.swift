import DeckCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes lines to standard error, every one escaped with `TerminalText.escaped`: warnings and
/// errors name things from the input (and file paths), and none of them may drive the terminal.
enum StandardError {
  /// Writes `line`, its control and bidirectional characters shown visibly (a line break in it
  /// as `\n`), and a line break; when standard error is closed (a pipe whose reader has gone),
  /// the line is dropped rather than the process stopped.
  static func write(_ line: String) {
    let bytes = Array((TerminalText.escaped(line) + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(STDERR_FILENO, base + offset, buffer.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }

  /// The C library's `write`.
  private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #else
    Darwin.write(descriptor, buffer, count)
    #endif
  }
}
