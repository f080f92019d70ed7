import DeckCore
import DeckJSON
import FuzzSupport

// Any bytes as a JSON deck document: the reader must answer with a collection or a DeckError.
// Read again with no budget, the syntax pass passes every note, card and review over unchecked
// and they are checked as they are decoded: the answer must be the same.
let scratch = FuzzScratchFile(suffix: ".json")

/// The collection read from the scratch file by `reader`, or the `DeckError` it threw; traps on
/// an error of any other type.
func read(_ reader: DeckJSONReader) -> Result<DeckCollection, DeckError> {
  do {
    return .success(try reader.read(path: scratch.path).collection)
  } catch let error as DeckError {
    return .failure(error)
  } catch {
    fatalError("not a DeckError: \(error)")
  }
}

runFuzzer { data in
  scratch.write(data)
  let checked = read(DeckJSONReader())
  var skimming = DeckJSONReader()
  skimming.decodingBudgetBytes = 0
  let skimmed = read(skimming)
  switch (checked, skimmed) {
  case (.success(let a), .success(let b)) where a == b: break
  case (.failure(let a), .failure(let b)) where a == b: break
  default: fatalError("reading with elements passed over differs: \(checked) / \(skimmed)")
  }
  if case .success(let collection) = checked {
    do {
      try readAllMedia(collection)
    } catch is DeckError {
    } catch {
      fatalError("not a DeckError: \(error)")
    }
  }
}
