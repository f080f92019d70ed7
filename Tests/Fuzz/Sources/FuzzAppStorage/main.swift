import DeckAppStorage
import DeckCore
import FuzzSupport

// Any bytes as the file an iOS app keeps its cards in: a plist, a JSON record file, or an SQLite
// database (deckport's schema or a Core Data/SwiftData store), each under its usual extension.
// The reader, and the mapping of its records onto notes, must answer with records or a
// DeckError. The kind is detected from the content, as `deckport convert` does.
let scratches = [
  FuzzScratchFile(suffix: ".plist"), FuzzScratchFile(suffix: ".json"), FuzzScratchFile(suffix: ".store"),
]
runFuzzer { data in
  for scratch in scratches {
    scratch.write(data)
    do {
      let content = try AppStorageReader().read(path: scratch.path)
      let mapped = AppRecordMapping.collection(from: content.records)
      try readAllMedia(mapped.collection)
    } catch is DeckError {
    } catch {
      fatalError("not a DeckError: \(error)")
    }
  }
}
