import DeckConversion
import DeckCore
import Foundation
import FuzzSupport
import FuzzWriting

// Every reader into every writer, from valid collections with hostile values inside. The input
// is a small program: which seed collection (read once at start-up through deckport's readers),
// which writer A and writer B (with their options), then mutations of the in-memory model, then
// (with bytes left) the export choices (one deck, one tag, no scheduling, presets or media). The
// mutated collection is written by A, read back by A's reader, compared with what was written
// (`DeckDifference`, as `deckport diff` does), and written again by B. Every card is also rendered
// (`CardPreview`, as `deckport render` does). Each step must succeed or throw a DeckError; anything
// else, or a trap, is a finding.
let scratch = FuzzScratch(name: "writers")
let work = scratch.work
let temporary = scratch.temporary

let seeds = Seeds.load(scratch: work)
let stores = StoreTemplate.load()
runFuzzer { data in
  var input = FuzzInput(data)
  var collection = input.pick(seeds)
  let first = OutputPlan(&input, stores: stores)
  let second = OutputPlan(&input, stores: stores)
  Mutations.apply(&input, to: &collection)
  // Bytes left after the changes choose what of the collection an export keeps.
  if !input.isEmpty {
    let choices = Choices.read(&input, for: collection)
    guard
      let kept = fuzzStep("export choices", { try choices.applied(to: collection, at: SourceLocation(file: "fuzz")) })
    else { return }
    collection = kept.collection
  }

  // Every card of the hostile collection rendered, as `deckport render` shows it.
  _ = fuzzStep("render") {
    let preview = CardPreview(LoadedDeck(collection: collection, formatName: "json"))
    _ = (preview.lines, try preview.jsonText(), preview.warnings(at: SourceLocation(file: "fuzz")))
  }

  FuzzScratch.reset(work)
  FuzzScratch.reset(temporary)
  let folderA = (work as NSString).appendingPathComponent("a")
  let folderB = (work as NSString).appendingPathComponent("b")
  FuzzScratch.reset(folderA)
  FuzzScratch.reset(folderB)
  guard let written = fuzzStep("write \(first.format.name.rawValue)", { try first.write(collection, in: folderA) }),
    let readBack = fuzzStep("read \(first.format.name.rawValue)", { try first.read(written) })
  else { return }
  // What changed, as `deckport diff` shows it: the hostile collection against what the writer gave
  // back, with what Anki's import of it would take (every modification time and id compared).
  _ = fuzzStep("diff") {
    let difference = try DeckDifference(
      from: LoadedDeck(collection: collection, formatName: "json"),
      to: LoadedDeck(collection: readBack, formatName: first.format.name.rawValue))
    _ = (difference.lines, difference.statLines, try difference.jsonText(), try difference.statJSONText())
  }
  _ = fuzzStep("write \(second.format.name.rawValue)", { try second.write(readBack, in: folderB) })
  if fuzzVerbose {
    FileHandle.standardError.write(Data("ok \(first.format.name.rawValue) -> \(second.format.name.rawValue)\n".utf8))
  }
}
