import DeckConversion
import DeckCore
import DeckJSON
import Foundation
import FuzzWriting

/// Valid collections the mutations start from, each read once through deckport's own readers
/// (every input format: Anki packages of each generation, CSV, a JSON deck, app storage), with
/// their media held in memory so that no execution reads a fixture again.
enum Seeds {
  static func load(scratch: String) -> [DeckCollection] {
    var collections = [
      "anki/legacy1.apkg", "anki/legacy2_sched.apkg", "anki/latest_sched.apkg", "anki/genanki_legacy1.apkg",
      "anki/latest.colpkg", "csv/anki/cards_html1.txt", "app/flashzilla-binary.plist",
      "app/neomnemo-mnemonics.json", "app/Idealic.sqlite", "app/flashcard-quiz.sqlite", "app/flashzilla.store",
    ].map { read(fixtures.appendingPathComponent($0).path) }
    // A deckport JSON deck: the smallest Anki seed written as JSON and read back.
    let json = (scratch as NSString).appendingPathComponent("seed.json")
    do {
      try DeckJSONWriter().write(collections[0], to: json)
    } catch {
      fatalError("cannot write the JSON seed: \(error)")
    }
    collections.append(read(json))
    try? FileManager.default.removeItem(atPath: json)
    return collections.map(trimmed)
  }

  /// The first few notes with their cards, reviews and media (plus one file no note uses), and
  /// every deck, note type and option group: small enough that an execution stays quick.
  static func trimmed(_ collection: DeckCollection) -> DeckCollection {
    var small = collection
    small.notes = Array(collection.notes.prefix(4))
    let noteIDs = Set(small.notes.map(\.id))
    small.cards = collection.cards.filter { noteIDs.contains($0.noteID) }
    let cardIDs = Set(small.cards.map(\.id))
    small.reviews = Array(collection.reviews.filter { cardIDs.contains($0.cardID) }.prefix(6))
    let referenced = Set(small.notes.flatMap { $0.fields.flatMap { MediaReferences.fileNames(in: $0) } })
    let used = collection.media.filter { referenced.contains($0.name) }
    let unused = collection.media.first { !referenced.contains($0.name) }
    small.media = Array(used.prefix(3)) + (unused.map { [$0] } ?? [])
    return small
  }

  private static func read(_ path: String) -> DeckCollection {
    do {
      var collection = try DeckLoader().load(path: path).collection
      for index in collection.media.indices {
        collection.media[index].blob = MediaBlob(data: try collection.media[index].blob.data())
      }
      return collection
    } catch {
      fatalError("cannot read the seed \(path): \(error)")
    }
  }
}
