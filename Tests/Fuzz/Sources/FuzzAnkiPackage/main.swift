import DeckAnki
import DeckCore
import FuzzSupport

// Any bytes as a whole .apkg file: the reader must answer with a collection or a DeckError.
let scratch = FuzzScratchFile(suffix: ".apkg")
runFuzzer { data in
  scratch.write(data)
  do {
    let contents = try AnkiPackageReader().read(path: scratch.path)
    try readAllMedia(contents.collection)
  } catch is DeckError {
  } catch {
    fatalError("not a DeckError: \(error)")
  }
}
