import DeckConversion
import DeckCore
import DeckJSON
import Foundation

/// The repository's `fixtures/` folder.
let fixtures = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures")

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

/// A Core Data / SwiftData store an app created, which the core-data writer fills (it never
/// creates one), held in memory and written out before each use.
struct StoreTemplate {
  /// The store's file name.
  var name: String
  /// The store's bytes.
  var data: Data
  /// The profile whose records the store's entity holds.
  var profile: String
  /// Files beside the store (external binary storage), relative path and bytes.
  var companions: [(path: String, data: Data)]

  static func load() -> [StoreTemplate] {
    let support = ".neomnemo_SUPPORT/_EXTERNAL_DATA/3F2504E0-4F89-41D3-9A0C-0305E82C3301"
    return [
      ("flashzilla-empty.store", "flashzilla", []), ("flashzilla-swiftdata-empty.store", "flashzilla", []),
      ("Idealic.sqlite", "idealic", []), ("flashcard-quiz.sqlite", "flashcard-quiz", []),
      ("neomnemo.store", "neomnemo", [support]),
    ].map { name, profile, companions in
      func bytes(_ relative: String) -> Data {
        guard let data = FileManager.default.contents(atPath: fixtures.appendingPathComponent("app/" + relative).path)
        else {
          fatalError("fixture missing: app/\(relative)")
        }
        return data
      }
      return StoreTemplate(
        name: name, data: bytes(name), profile: profile, companions: companions.map { ($0, bytes($0)) })
    }
  }

  /// Writes the store (and its companions) into `folder`; returns the store's path.
  func place(in folder: String) -> String {
    let path = (folder as NSString).appendingPathComponent(name)
    FileManager.default.createFile(atPath: path, contents: data)
    for companion in companions {
      let companionPath = (folder as NSString).appendingPathComponent(companion.path)
      try? FileManager.default.createDirectory(
        atPath: (companionPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      FileManager.default.createFile(atPath: companionPath, contents: companion.data)
    }
    return path
  }
}
