import DeckCore
import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The body the driver calls for each input; libFuzzer calls a C function, which cannot capture.
nonisolated(unsafe) private var currentBody: ((Data) -> Void)?

/// Runs libFuzzer with the process's arguments, calling `body` with every input it makes.
///
/// `body` must treat any thrown ``DeckError`` as a correct answer; libFuzzer reports crashes,
/// traps, sanitizer findings, hangs (`-timeout`) and memory blow-ups (`-rss_limit_mb`).
public func runFuzzer(_ body: @escaping (Data) -> Void) -> Never {
  currentBody = body
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  let status = runFuzzerDriver(&argc, &argv) { bytes, count in
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    currentBody?(data)
    return 0
  }
  exit(status)
}

/// A scratch file for inputs that readers take by path, in memory-backed /dev/shm when there is one.
public final class FuzzScratchFile: @unchecked Sendable {
  /// The file's path.
  public let path: String

  /// Creates the scratch file's name, with `suffix` (`.apkg`, `.json`).
  public init(suffix: String) {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    path = (folder as NSString).appendingPathComponent("deckport-fuzz-\(getpid())\(suffix)")
  }

  /// Replaces the file's content with `data`.
  public func write(_ data: Data) {
    FileManager.default.createFile(atPath: path, contents: data)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Reads every chunk of every media file, as a converter would, stopping at a total budget so a
/// legitimate but large input does not look like a hang. A media file whose bytes are `forbidden`
/// (a file outside the folder read, ``FuzzScratchFolder/outsideBytes``) is a finding: the process
/// stops, as on a crash.
public func readAllMedia(_ collection: DeckCollection, budget: Int64 = 64 << 20, forbidden: Data? = nil) throws {
  var total: Int64 = 0
  for file in collection.media {
    var head = Data()
    try file.blob.forEachChunk { chunk in
      total += Int64(chunk.count)
      if total > budget { throw DeckError(.limitExceeded, at: SourceLocation(file: "(fuzz)"), "budget") }
      if let forbidden, head.count <= forbidden.count { head.append(contentsOf: chunk.prefix(forbidden.count + 1)) }
    }
    if let forbidden, head == forbidden {
      fatalError("the media file '\(file.name)' holds the bytes of a file outside the folder")
    }
  }
}
