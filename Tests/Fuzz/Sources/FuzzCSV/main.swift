import DeckCSV
import DeckCore
import FuzzSupport

// Any bytes as a CSV/TSV file, read as Anki's text format and as a spreadsheet whose first row
// names the columns (scheduling columns among them): the reader must answer with a deck or a
// DeckError.
let scratch = FuzzScratchFile(suffix: ".txt")
runFuzzer { data in
  scratch.write(data)
  for options in [CSVOptions(), CSVOptions(hasHeaderRow: true)] {
    do {
      _ = try CSVReader(options: options).read(path: scratch.path)
    } catch is DeckError {
    } catch {
      fatalError("not a DeckError: \(error)")
    }
  }
}
