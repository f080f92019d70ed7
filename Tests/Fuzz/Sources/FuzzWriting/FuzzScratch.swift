import DeckCore
import Foundation

/// The folders a writer target works in, in memory-backed /dev/shm when there is one, one set per
/// process: `work` for the outputs, `temporary` as `TMPDIR` for the writers' own scratch folders.
/// Removed when the process exits.
package struct FuzzScratch {
  package let work: String
  package let temporary: String

  /// Makes `deckport-fuzz-<name>-<pid>/work` and `…/tmp`, and points `TMPDIR` at the latter.
  package init(name: String) {
    let shm = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let root = (shm as NSString).appendingPathComponent("deckport-fuzz-\(name)-\(getpid())")
    work = (root as NSString).appendingPathComponent("work")
    temporary = (root as NSString).appendingPathComponent("tmp")
    try? FileManager.default.removeItem(atPath: root)
    for folder in [work, temporary] { Self.reset(folder) }
    setenv("TMPDIR", temporary, 1)
    Self.root = root
    atexit { if let root = FuzzScratch.root { try? FileManager.default.removeItem(atPath: root) } }
  }

  /// The folder `atexit` removes (a C callback cannot capture it).
  nonisolated(unsafe) private static var root: String?

  /// Empties `path` (making it when it is missing).
  package static func reset(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
}

/// With DECKPORT_FUZZ_VERBOSE set, each step's time and DeckError are printed, to see how deep
/// inputs get.
package let fuzzVerbose = ProcessInfo.processInfo.environment["DECKPORT_FUZZ_VERBOSE"] != nil

/// Runs one step of an input's program: its result, or nil when it threw a DeckError (a correct
/// answer); any other error is a finding.
package func fuzzStep<T>(_ name: String, _ body: () throws -> T) -> T? {
  let start = fuzzVerbose ? DispatchTime.now().uptimeNanoseconds : 0
  defer {
    if fuzzVerbose {
      let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
      FileHandle.standardError.write(Data("\(name): \(milliseconds) ms\n".utf8))
    }
  }
  do {
    return try body()
  } catch let error as DeckError {
    if fuzzVerbose { FileHandle.standardError.write(Data("\(name): \(error)\n".utf8)) }
    return nil
  } catch {
    fatalError("\(name): not a DeckError: \(error)")
  }
}
