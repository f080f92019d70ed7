import DeckConversion
import DeckCore
import DeckIO
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `-` as a file name: standard input as an input, standard output as an output, each through
/// a file in a private temporary folder (readers of packages and stores must seek, and an
/// output reaches standard output only once it is complete, so a failed conversion writes
/// nothing there). Messages name them `<stdin>` and `<stdout>`, never the temporary files.
final class StandardStreams {
  /// What `-` stands for.
  static let dash = "-"
  /// How messages name standard input and output.
  static let inputName = "<stdin>"
  static let outputName = "<stdout>"

  private var scratch: TemporaryDirectory?
  /// Temporary path → the name messages show.
  private(set) var shownNames: [String: String] = [:]

  /// The path to read for `path`: itself, or for `-` a copy of standard input, named with the
  /// first extension of `format` (so the reader takes it as that format; without a format, the
  /// content tells).
  func inputPath(for path: String, format: FormatName?) throws -> String {
    guard path == Self.dash else { return path }
    let named = format.flatMap { FormatArguments.registry.reader(named: $0) }
    let fileExtension = named?.description.extensions.first.map { ".\($0)" } ?? ""
    let spooled = try scratchFolder().path(for: "stdin\(fileExtension)")
    try Self.copyStandardInput(to: spooled)
    shownNames[spooled] = Self.inputName
    return spooled
  }

  /// The path to write for `path`: itself, or for `-` a file in the scratch folder that
  /// ``finishOutput(_:)`` then copies to standard output.
  func outputPath(for path: String, format: FormatDescription) throws -> String {
    guard path == Self.dash else { return path }
    let fileExtension = format.newFileExtension.map { ".\($0)" } ?? ""
    let scratchPath = try scratchFolder().path(for: "stdout\(fileExtension)")
    shownNames[scratchPath] = Self.outputName
    return scratchPath
  }

  /// Copies the finished output at `path` to standard output, when it stands for `-`. A reader
  /// that goes away early (`| head`) ends the copy quietly. On a terminal, text that could drive
  /// it is shown visibly, as every name deckport prints is (``TerminalText``): in JSON as `\uXXXX`
  /// escapes (the same JSON), in CSV and TSV as `\e[2J`, `\u{202E}` (tabs and line breaks kept);
  /// a pipe or a file gets the exact bytes.
  func finishOutput(_ path: String, format: FormatDescription) throws {
    guard shownNames[path] == Self.outputName else { return }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw DeckError(
        .writeFailed, at: SourceLocation(file: Self.outputName), "the converted deck could not be read back to copy it")
    }
    defer { try? handle.close() }
    let shown = Self.outputIsTerminal ? Self.terminalView(of: format) : nil
    var pending = Data()
    while true {
      let chunk = handle.readData(ofLength: 1 << 20)
      var bytes = chunk
      if let shown {
        // Whole lines only, so no UTF-8 sequence is cut in two.
        pending.append(chunk)
        let end = chunk.isEmpty ? pending.endIndex : (pending.lastIndex(of: 0x0A).map { $0 + 1 } ?? pending.startIndex)
        bytes = Data(shown(String(decoding: pending[pending.startIndex..<end], as: UTF8.self)).utf8)
        pending = Data(pending[end...])
      }
      if let failure = Self.writeAll(bytes, to: STDOUT_FILENO) {
        if failure == EPIPE { return }
        throw DeckError(
          .writeFailed, at: SourceLocation(file: Self.outputName),
          "cannot be written (\(String(cString: strerror(failure))))")
      }
      if chunk.isEmpty { return }
    }
  }

  /// How text of `format` is made safe for a terminal, or nil for a format that is not text
  /// (packages are never written to a terminal).
  private static func terminalView(of format: FormatDescription) -> ((String) -> String)? {
    switch format.textSyntax {
    case .json: { TerminalText.escapedJSON($0) }
    case .delimited: { TerminalText.escapedKeepingLayout($0) }
    case nil: nil
    }
  }

  /// `error` with the temporary paths it names replaced by `<stdin>` and `<stdout>`, and the
  /// settings it names by their options.
  func shown(_ error: DeckError) -> DeckError {
    var copy = error.namingFlags
    copy.location.file = shownNames[error.location.file] ?? error.location.file
    copy.diagnostics = error.diagnostics.map(shown)
    return copy
  }

  /// `warning` with the temporary paths it names replaced by `<stdin>` and `<stdout>`, and the
  /// settings it names by their options.
  func shown(_ warning: Diagnostic) -> Diagnostic {
    var copy = warning.namingFlags
    copy.location.file = shownNames[warning.location.file] ?? warning.location.file
    return copy
  }

  /// `path` as messages show it.
  func shown(_ path: String) -> String {
    shownNames[path] ?? path
  }

  /// Whether standard output is a terminal (a package is not written to one).
  static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  private func scratchFolder() throws -> TemporaryDirectory {
    if let scratch { return scratch }
    let made = try TemporaryDirectory(prefix: "deckport-stream-")
    scratch = made
    return made
  }

  private static func copyStandardInput(to path: String) throws {
    let location = SourceLocation(file: inputName)
    guard FileManager.default.createFile(atPath: path, contents: nil), let sink = FileHandle(forWritingAtPath: path)
    else {
      throw DeckError(.writeFailed, at: location, "cannot make a temporary copy of standard input")
    }
    defer { try? sink.close() }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      try waitForStandardInput()
      let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if count == 0 { return }
      if count < 0 {
        if errno == EINTR { continue }
        throw DeckError(.unreadableFile, at: location, "cannot be read (\(String(cString: strerror(errno))))")
      }
      do {
        try sink.write(contentsOf: buffer[0..<count])
      } catch {
        throw DeckError(
          .writeFailed, at: location, "cannot make a temporary copy of standard input (\(error.localizedDescription))")
      }
    }
  }

  /// Waits until standard input has bytes to read (or has ended), asking every tenth of a second
  /// whether the work is still wanted, so that Ctrl-C stops a command waiting for input that
  /// does not come.
  ///
  /// - Throws: `CancellationError` once the work is no longer wanted (``Cancellation``).
  private static func waitForStandardInput() throws {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    while true {
      try Cancellation.check()
      let ready = poll(&descriptor, 1, 100)
      // Ready, ended, or an error the read then reports; a signal's interruption asks again.
      if ready > 0 || (ready < 0 && errno != EINTR) { return }
    }
  }

  /// Writes all of `data` to `descriptor`; returns the error number when writing fails
  /// (`EPIPE` when the reader has gone), nil when everything was written.
  private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
    data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, base + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return written < 0 ? errno : EIO }
        offset += written
      }
      return nil
    }
  }
}
