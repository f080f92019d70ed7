import DeckCore
import Foundation
import FuzzSupport
import FuzzWriting

// Every reader into every writer, from valid collections with hostile values inside. The input
// is a small program: which seed collection (read once at start-up through deckport's readers),
// which writer A and writer B (with their options), then mutations of the in-memory model. The
// mutated collection is written by A, read back by A's reader, and written again by B. Each
// step must succeed or throw a DeckError; anything else, or a trap, is a finding.
let shm = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
let root = (shm as NSString).appendingPathComponent("deckport-fuzz-writers-\(getpid())")
let work = (root as NSString).appendingPathComponent("work")
let temporary = (root as NSString).appendingPathComponent("tmp")
try? FileManager.default.removeItem(atPath: root)
for folder in [work, temporary] {
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
}
// The writers' scratch folders go to memory too, and are swept with everything else.
setenv("TMPDIR", temporary, 1)
atexit { try? FileManager.default.removeItem(atPath: root) }

let seeds = Seeds.load(scratch: work)
let stores = StoreTemplate.load()
/// With DECKPORT_FUZZ_VERBOSE set, each DeckError is printed, to see how deep inputs get.
let verbose = ProcessInfo.processInfo.environment["DECKPORT_FUZZ_VERBOSE"] != nil

func resetFolder(_ path: String) {
  try? FileManager.default.removeItem(atPath: path)
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
}

func step<T>(_ name: String, _ body: () throws -> T) -> T? {
  let start = verbose ? DispatchTime.now().uptimeNanoseconds : 0
  defer {
    if verbose {
      let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
      FileHandle.standardError.write(Data("\(name): \(milliseconds) ms\n".utf8))
    }
  }
  do {
    return try body()
  } catch let error as DeckError {
    if verbose { FileHandle.standardError.write(Data("\(name): \(error)\n".utf8)) }
    return nil
  } catch {
    fatalError("\(name): not a DeckError: \(error)")
  }
}

runFuzzer { data in
  var input = FuzzInput(data)
  var collection = input.pick(seeds)
  let first = OutputPlan(&input, stores: stores)
  let second = OutputPlan(&input, stores: stores)
  Mutations.apply(&input, to: &collection)

  resetFolder(work)
  resetFolder(temporary)
  let folderA = (work as NSString).appendingPathComponent("a")
  let folderB = (work as NSString).appendingPathComponent("b")
  resetFolder(folderA)
  resetFolder(folderB)
  guard let written = step("write \(first.format.name.rawValue)", { try first.write(collection, in: folderA) }),
    let readBack = step("read \(first.format.name.rawValue)", { try first.read(written) })
  else { return }
  _ = step("write \(second.format.name.rawValue)", { try second.write(readBack, in: folderB) })
  if verbose {
    FileHandle.standardError.write(Data("ok \(first.format.name.rawValue) -> \(second.format.name.rawValue)\n".utf8))
  }
}
