import DeckCSV
import DeckCore
import FuzzSupport

// Any bytes as a CSV/TSV file in Anki's text format: the reader must answer with a deck or a
// DeckError.
let scratch = FuzzScratchFile(suffix: ".txt")
runFuzzer { data in
  scratch.write(data)
  do {
    _ = try CSVReader(options: CSVOptions()).read(path: scratch.path)
  } catch is DeckError {
  } catch {
    fatalError("not a DeckError: \(error)")
  }
}
