import DeckAnki
import DeckCore
import DeckIO
import DeckJSON
import DeckTestSupport
import Foundation
import Testing

@Suite("JSON deck as a folder (json-dir): layout, byte stability, one file per change")
struct JSONDirectoryTests {
  static let packages = Fixtures.ankiPackages

  /// Every file under `folder` by its relative path, with its bytes.
  static func files(_ folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let relative = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let path = folder + "/" + relative
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
        result[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
      }
    }
    return result
  }

  /// The relative paths whose bytes differ between two folders (or that only one has).
  static func changed(_ first: [String: Data], _ second: [String: Data]) -> [String] {
    Set(first.keys).union(second.keys).filter { first[$0] != second[$0] }.sorted()
  }

  /// Writes `collection` as a json-dir folder named `name` in `scratch`.
  static func write(_ collection: DeckCollection, _ scratch: TemporaryDirectory, _ name: String) throws -> String {
    let folder = scratch.path(for: name)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    try DeckJSONDirectoryWriter().write(collection, to: folder)
    return folder
  }

  @Test(
    "package -> json-dir -> model equals the model, the folder's bytes are the same every time, and the JSON document written from it is byte-identical",
    arguments: packages)
  func roundTrip(package: String) throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path(package)).collection
    let scratch = try TemporaryDirectory()
    let first = try Self.write(original, scratch, "first")
    let again = try Self.write(original, scratch, "again")
    #expect(try Self.files(first) == (try Self.files(again)))
    let (readBack, warnings) = try DeckJSONDirectoryReader().read(path: first)
    #expect(warnings.isEmpty)
    #expect(readBack == original)
    let second = try Self.write(readBack, scratch, "second")
    #expect(try Self.files(first) == (try Self.files(second)))
    try DeckJSONWriter().write(original, to: scratch.path(for: "a.json"))
    try DeckJSONWriter().write(readBack, to: scratch.path(for: "b.json"))
    #expect(
      FileManager.default.contentsEqual(atPath: scratch.path(for: "a.json"), andPath: scratch.path(for: "b.json")))
    // Media are raw files, byte for byte.
    for file in original.media {
      let copied = MediaBlob(source: FileMediaSource(path: first + "/media/" + file.name))
      #expect(try copied.sha1Hex() == (try file.blob.sha1Hex()), "\(file.name)")
    }
  }

  @Test("an edit to one note's field changes exactly that note's file")
  func oneFieldOneFile() throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path("real/french-phrases-latest.apkg")).collection
    var edited = original
    edited.notes[7].fields[0] += " (edited)"
    let scratch = try TemporaryDirectory()
    let before = try Self.files(try Self.write(original, scratch, "before"))
    let after = try Self.files(try Self.write(edited, scratch, "after"))
    let stem = DeckJSONDirectory.noteFileStem(guid: original.notes[7].guid, occurrence: 1)
    #expect(Self.changed(before, after) == ["notes/\(stem).json"])
  }

  @Test("a day of study (scheduling changed, reviews added) changes only the files of the notes studied")
  func studyTouchesStudiedNotes() throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path("real/french-phrases-latest.apkg")).collection
    var studied = original
    var expected: [String] = []
    let latest = original.reviews.map(\.id).max() ?? 1_700_000_000_000
    for (offset, cardIndex) in [3, 11].enumerated() {
      let card = studied.cards[cardIndex]
      studied.cards[cardIndex].scheduling.type = .review
      studied.cards[cardIndex].scheduling.queue = .review
      studied.cards[cardIndex].scheduling.interval = 4
      studied.cards[cardIndex].scheduling.reviews += 1
      studied.reviews.append(
        Review(
          id: latest + Int64(offset + 1) * 1000, cardID: card.id, ease: 3, interval: 4, lastInterval: 1,
          easeFactor: 2500, duration: 6000, kind: .review))
      let note = try #require(original.notes.first { $0.id == card.noteID })
      expected.append("notes/\(DeckJSONDirectory.noteFileStem(guid: note.guid, occurrence: 1)).json")
    }
    let scratch = try TemporaryDirectory()
    let before = try Self.files(try Self.write(original, scratch, "before"))
    let folder = try Self.write(studied, scratch, "after")
    #expect(Self.changed(before, try Self.files(folder)) == Set(expected).sorted())
    #expect(try DeckJSONDirectoryReader().read(path: folder).collection == studied)
  }

  @Test("cards and reviews out of id order, unattached reviews and shared GUIDs come back in their order")
  func orderAndSharedGUIDs() throws {
    var original = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection
    original.cards.reverse()
    original.reviews.reverse()
    original.reviews.append(
      Review(id: 5, cardID: 999_999, ease: 1, interval: 0, lastInterval: 0, easeFactor: 0, duration: 1, kind: .learning)
    )
    var twin = original.notes[0]
    twin.id += 1_000_000
    original.notes.append(twin)
    let scratch = try TemporaryDirectory()
    let folder = try Self.write(original, scratch, "dir")
    let index = try String(contentsOfFile: folder + "/deckport-dir.json", encoding: .utf8)
    #expect(index.contains("\"cardOrder\""))
    #expect(index.contains("\"reviewOrder\""))
    #expect(index.contains("\"reviewsWithoutCard\""))
    let stem = DeckJSONDirectory.noteFileStem(guid: twin.guid, occurrence: 1)
    #expect(FileManager.default.fileExists(atPath: folder + "/notes/\(stem)~2.json"))
    let (readBack, warnings) = try DeckJSONDirectoryReader().read(path: folder)
    #expect(readBack == original)
    // The review of a card the deck does not have is kept as a collection keeps it, silently.
    #expect(warnings.isEmpty, "\(warnings)")
  }

  @Test("a note file added by hand without cards or reviews gets the cards Anki makes, after the deck's new cards")
  func handWrittenNoteFile() throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path("anki/latest_sched.apkg")).collection
    let scratch = try TemporaryDirectory()
    let folder = try Self.write(original, scratch, "deck")
    func add(_ guid: String, _ json: String) throws {
      let stem = DeckJSONDirectory.noteFileStem(guid: guid, occurrence: 1)
      try Data(json.utf8).write(to: URL(fileURLWithPath: "\(folder)/notes/\(stem).json"))
    }
    try add(
      "hola-1",
      #"{"note": {"guid": "hola-1", "noteType": "Basic (and reversed card)", "deck": "Parent::Child", "fields": {"Front": "hola", "Back": "hello"}}}"#
    )
    try add(
      "hola-2",
      #"{"note": {"guid": "hola-2", "noteType": "Basic", "deck": "Parent::New", "fields": {"Front": "adiós"}}, "reviews": []}"#
    )
    let (collection, warnings) = try DeckJSONDirectoryReader().read(path: folder)
    #expect(warnings.isEmpty)
    #expect(collection.notes.count == original.notes.count + 2)
    #expect(Array(collection.cards.prefix(original.cards.count)) == original.cards)
    let added = collection.cards.dropFirst(original.cards.count)
    let names = Dictionary(uniqueKeysWithValues: collection.decks.map { ($0.id, $0.name) })
    let guids = Dictionary(uniqueKeysWithValues: collection.notes.map { ($0.id, $0.guid) })
    #expect(added.map { guids[$0.noteID] } == ["hola-1", "hola-1", "hola-2"])
    #expect(added.map(\.templateOrdinal) == [0, 1, 0])
    #expect(added.map { names[$0.deckID] } == ["Parent::Child", "Parent::Child", "Parent::New"])
    let lastNew = original.cards.filter { $0.scheduling.type == .new }.map(\.scheduling.due).max() ?? 0
    #expect(added.map(\.scheduling.due) == [lastNew + 1, lastNew + 1, lastNew + 2])
    #expect(Set(collection.cards.map(\.id)).count == collection.cards.count)
  }

  @Test("a note file added by hand without GUID or id: any name; the same note, edited, keeps its GUID")
  func freelyNamedNoteFile() throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path("anki/latest_sched.apkg")).collection
    let scratch = try TemporaryDirectory()
    let folder = try Self.write(original, scratch, "deck")
    let file = URL(fileURLWithPath: "\(folder)/notes/hola.json")
    func guidOfHola(back: String) throws -> String {
      try Data(
        #"{"note": {"noteType": "Basic", "deck": "Spanish", "fields": {"Front": "hola", "Back": "\#(back)"}}}"#.utf8
      ).write(to: file)
      let (collection, warnings) = try DeckJSONDirectoryReader().read(path: folder)
      #expect(warnings.isEmpty)
      #expect(collection.notes.count == original.notes.count + 1)
      let added = try #require(collection.notes.first { $0.fields.first == "hola" })
      #expect(collection.cards.filter { $0.noteID == added.id }.count == 1)
      #expect(!Set(original.notes.map(\.guid)).contains(added.guid))
      return added.guid
    }
    let first = try guidOfHola(back: "hello")
    #expect(try guidOfHola(back: "hello") == first)
    #expect(try guidOfHola(back: "hi there") == first)

    // A note that has an id but lost its GUID is not taken for a new one.
    try Data(#"{"note": {"id": 5, "noteType": "Basic", "fields": {"Front": "hola"}}}"#.utf8).write(to: file)
    do {
      _ = try DeckJSONDirectoryReader().read(path: folder)
      Issue.record("a note file with an id and no GUID was read")
    } catch let error as DeckError {
      #expect(
        error.description.hasSuffix(
          "notes/hola.json: at note: the key \"guid\" is missing, but the note has an id; a note file keeps its note's GUID (only a note added by hand, with neither, gets one)"
        ))
    }
  }

  @Test("a hand-written note file with reviews but no cards is refused, naming the file")
  func reviewsWithoutCards() throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path("anki/latest_sched.apkg")).collection
    let scratch = try TemporaryDirectory()
    let folder = try Self.write(original, scratch, "deck")
    let stem = DeckJSONDirectory.noteFileStem(guid: "x", occurrence: 1)
    try Data(
      #"{"note": {"guid": "x", "noteType": "Basic", "fields": {}}, "reviews": [{"id": 1, "card": 2, "button": 3, "interval": 1, "lastInterval": 0, "easeFactor": 2500, "duration": 1000, "kind": 1}]}"#
        .utf8
    ).write(to: URL(fileURLWithPath: "\(folder)/notes/\(stem).json"))
    #expect(throws: DeckError.self) { try DeckJSONDirectoryReader().read(path: folder) }
    do {
      _ = try DeckJSONDirectoryReader().read(path: folder)
    } catch let error as DeckError {
      #expect(
        error.description.hasSuffix(
          "notes/\(stem).json: at reviews: the file has reviews but no \"cards\"; reviews belong to the cards they name, and a note file without cards gets new ones"
        ))
    }
  }

  @Test("note file names: lowercase hex of the GUID, distinct for GUIDs differing only in case, never a path")
  func noteFileNames() {
    #expect(DeckJSONDirectory.noteFileStem(guid: "Ab/", occurrence: 1) == "41622f")
    #expect(DeckJSONDirectory.noteFileStem(guid: "ab/", occurrence: 1) == "61622f")
    #expect(DeckJSONDirectory.noteFileStem(guid: "ab/", occurrence: 3) == "61622f~3")
    #expect(DeckJSONDirectory.noteFileStem(guid: "", occurrence: 1) == "~1")
    #expect(DeckJSONDirectory.noteFileStem(guid: String(repeating: "x", count: 300), occurrence: 1).hasPrefix("sha1-"))
  }

  @Test(
    "media names that are not one safe file name, or differ only in case, are refused and nothing is written outside")
  func hostileMediaNames() throws {
    let original = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy1.apkg")).collection
    for names in [["../escape.png"], ["a/b.png"], ["Pic.png", "pic.png"]] {
      var collection = original
      collection.media = names.map { MediaFile(name: $0, blob: MediaBlob(data: Data("x".utf8))) }
      let scratch = try TemporaryDirectory()
      let folder = scratch.path(for: "dir")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      #expect(throws: DeckError.self) { try DeckJSONDirectoryWriter().write(collection, to: folder) }
      #expect(!FileManager.default.fileExists(atPath: scratch.path(for: "escape.png")))
    }
  }
}
