import DeckCore
import DeckJSON
import FuzzSupport

// Any bytes as a JSON deck document: the reader must answer with a collection or a DeckError.
let scratch = FuzzScratchFile(suffix: ".json")
runFuzzer { data in
  scratch.write(data)
  do {
    let (collection, _) = try DeckJSONReader().read(path: scratch.path)
    try readAllMedia(collection)
  } catch is DeckError {
  } catch {
    fatalError("not a DeckError: \(error)")
  }
}
