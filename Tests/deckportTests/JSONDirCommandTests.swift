import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("deckport convert with json-dir folders")
struct JSONDirCommandTests {
  static let packages = Fixtures.ankiPackages

  /// Converts `package` to a JSON deck `deck.json` and that to the json-dir folder `dir` in
  /// `scratch`, and returns both paths.
  static func jsonAndFolder(_ package: String, in scratch: TemporaryDirectory) throws -> (json: String, folder: String)
  {
    let json = scratch.path(for: "deck.json")
    let folder = scratch.path(for: "dir")
    let toJSON = try CommandRun.deckport(["convert", Fixtures.path(package), json])
    #expect(toJSON.status == 0, "stderr: \(toJSON.standardError)")
    let toFolder = try CommandRun.deckport(["convert", json, folder, "--to", "json-dir"])
    #expect(toFolder.status == 0, "stderr: \(toFolder.standardError)")
    return (json, folder)
  }

  /// The notes of a JSON deck document, each as its JSON text.
  static func notes(_ path: String) throws -> [String] {
    let document =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
    return try ((document?["notes"] as? [Any]) ?? []).map {
      String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
    }
  }

  /// The one note file of the folder whose text contains `text`.
  static func noteFile(in folder: String, containing text: String) throws -> String {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/notes").sorted()
    let matches = try names.filter {
      try String(contentsOfFile: folder + "/notes/" + $0, encoding: .utf8).contains(text)
    }
    return folder + "/notes/" + (try #require(matches.first))
  }

  @Test("json -> json-dir -> json gives back the same bytes, the folder told by its content", arguments: packages)
  func byteIdenticalRoundTrip(package: String) throws {
    let scratch = try TemporaryDirectory()
    let (json, folder) = try Self.jsonAndFolder(package, in: scratch)
    let back = scratch.path(for: "back.json")
    let run = try CommandRun.deckport(["convert", folder, back])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.contains("from json-dir"))
    #expect(FileManager.default.contentsEqual(atPath: json, andPath: back))
  }

  @Test("editing one field in a note file changes exactly that note when converted back")
  func editedNoteFile() throws {
    let scratch = try TemporaryDirectory()
    let (json, folder) = try Self.jsonAndFolder("real/french-phrases-latest.apkg", in: scratch)
    let original = try Self.notes(json)
    let file = try Self.noteFile(in: folder, containing: "\"guid\"")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let fieldsStart = try #require(text.range(of: "\"fields\": {\n      \""))
    let valueStart = try #require(text.range(of: "\": \"", range: fieldsStart.upperBound..<text.endIndex))
    try (text[..<valueStart.upperBound] + "EDITED " + text[valueStart.upperBound...])
      .write(toFile: file, atomically: true, encoding: .utf8)
    let back = scratch.path(for: "back.json")
    let run = try CommandRun.deckport(["convert", folder, back])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let edited = try Self.notes(back)
    #expect(edited.count == original.count)
    let differing = zip(original, edited).filter { $0 != $1 }
    #expect(differing.count == 1)
    #expect(differing.first?.1.contains("EDITED ") == true)
  }

  @Test("media are raw files in media/, byte for byte")
  func mediaBytes() throws {
    let scratch = try TemporaryDirectory()
    let (json, folder) = try Self.jsonAndFolder("real/mixed-note-types-legacy2.apkg", in: scratch)
    let document =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
    let media = (document?["media"] as? [[String: Any]]) ?? []
    #expect(!media.isEmpty)
    for entry in media {
      let name = try #require(entry["name"] as? String)
      let base64 = try #require(entry["data"] as? String)
      let bytes = try #require(Data(base64Encoded: base64))
      #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/media/" + name)) == bytes, "\(name)")
    }
  }

  @Test("a non-empty folder is refused without --force and replaced whole with it")
  func existingDestination() throws {
    let scratch = try TemporaryDirectory()
    let (json, _) = try Self.jsonAndFolder("anki/legacy1.apkg", in: scratch)
    let output = scratch.path(for: "out")
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
    try Data("keep".utf8).write(to: URL(fileURLWithPath: output + "/keep.txt"))
    let refused = try CommandRun.deckport(["convert", json, output, "--to", "json-dir"])
    #expect(refused.status != 0)
    #expect(refused.standardError.contains("\(output): is a folder that is not empty; pass --force to replace it"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["keep.txt"])
    let forced = try CommandRun.deckport(["convert", json, output, "--to", "json-dir", "--force"])
    #expect(forced.status == 0, "stderr: \(forced.standardError)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        == ["deck-options", "deckport-dir.json", "decks", "media", "note-types", "notes"])
  }

  /// The name of the first media file the folder's index lists (`media[0]`).
  static func firstMedia(in folder: String) throws -> String {
    let index =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/deckport-dir.json")))
      as? [String: Any]
    let media = try #require(index?["media"] as? [[String: Any]])
    return try #require(media.first?["name"] as? String)
  }

  /// A damage done to a good folder, and what the error must say.
  struct Damage: CustomStringConvertible, Sendable {
    var description: String
    /// Damages the folder and returns the texts the error must contain.
    var apply: @Sendable (_ folder: String) throws -> [String]
  }

  static let damages: [Damage] = [
    Damage(description: "bad JSON in a note file") { folder in
      let file = try noteFile(in: folder, containing: "\"guid\"")
      try Data("{\n  \"note\": {,\n}\n".utf8).write(to: URL(fileURLWithPath: file))
      return ["\(file):2:12: invalid JSON: expected a key in double quotes"]
    },
    Damage(description: "a value of the wrong type in a note file") { folder in
      let file = try noteFile(in: folder, containing: "\"guid\"")
      let text = try String(contentsOfFile: file, encoding: .utf8)
      try text.replacingOccurrences(of: "\"tags\": [", with: "\"tags\": 7, \"x\": [")
        .write(toFile: file, atomically: true, encoding: .utf8)
      return ["\(file): at note.tags: expected an array"]
    },
    Damage(description: "a missing media file") { folder in
      let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder + "/media").sorted().first)
      try FileManager.default.removeItem(atPath: folder + "/media/" + name)
      return ["\(folder)/deckport-dir.json: at media[", "]: names '\(folder)/media/\(name)', which does not exist"]
    },
    Damage(description: "a media file whose bytes changed") { folder in
      let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder + "/media").sorted().first)
      try Data("changed".utf8).write(to: URL(fileURLWithPath: folder + "/media/" + name))
      return ["\(folder)/media/\(name): has 7 bytes, but"]
    },
    Damage(description: "a note file whose name is not its GUID's") { folder in
      let file = try noteFile(in: folder, containing: "\"guid\"")
      let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
      let index = folder + "/deckport-dir.json"
      try String(contentsOfFile: index, encoding: .utf8).replacingOccurrences(of: "\"\(stem)\"", with: "\"00\(stem)\"")
        .write(toFile: index, atomically: true, encoding: .utf8)
      try FileManager.default.moveItem(atPath: file, toPath: folder + "/notes/00\(stem).json")
      return ["\(folder)/notes/00\(stem).json: at note.guid: the GUID"]
    },
    Damage(description: "a media name that leaves the folder") { folder in
      let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder + "/media").sorted().first)
      try FileManager.default.copyItem(atPath: folder + "/media/" + name, toPath: folder + "/escape.png")
      let index = folder + "/deckport-dir.json"
      try String(contentsOfFile: index, encoding: .utf8).replacingOccurrences(
        of: "\"name\": \"\(name)\"", with: "\"name\": \"../escape.png\""
      )
      .write(toFile: index, atomically: true, encoding: .utf8)
      return [
        "\(folder)/deckport-dir.json: at media[", "]: names '\(folder)/media/../escape.png', which does not exist",
      ]
    },
    // FuzzDeckJSONDirectory: entries that are not regular files made the reader wait forever (a
    // named pipe) or read without end (a link to /dev/zero).
    Damage(description: "a media file that is a named pipe") { folder in
      let name = try firstMedia(in: folder)
      try FileManager.default.removeItem(atPath: folder + "/media/" + name)
      #expect(mkfifo(folder + "/media/" + name, 0o600) == 0)
      return [
        "deckport: error: \(folder)/deckport-dir.json: at media[0]: the media file '\(folder)/media/\(name)' is a named pipe, not a file\n"
      ]
    },
    Damage(description: "a media file that is a link to /dev/zero") { folder in
      let name = try firstMedia(in: folder)
      try FileManager.default.removeItem(atPath: folder + "/media/" + name)
      try FileManager.default.createSymbolicLink(atPath: folder + "/media/" + name, withDestinationPath: "/dev/zero")
      return [
        "deckport: error: \(folder)/deckport-dir.json: at media[0]: the media file '\(folder)/media/\(name)' is a device, not a file\n"
      ]
    },
    Damage(description: "a note file that is a named pipe") { folder in
      let file = try noteFile(in: folder, containing: "\"guid\"")
      try FileManager.default.removeItem(atPath: file)
      #expect(mkfifo(file, 0o600) == 0)
      return ["deckport: error: \(file): cannot be read (it is a named pipe, not a file)\n"]
    },
    Damage(description: "an index that is a link to /dev/zero") { folder in
      try FileManager.default.removeItem(atPath: folder + "/deckport-dir.json")
      try FileManager.default.createSymbolicLink(
        atPath: folder + "/deckport-dir.json", withDestinationPath: "/dev/zero")
      return ["deckport: error: \(folder)/deckport-dir.json: cannot be read (it is a device, not a file)\n"]
    },
    // A folder from someone else must not bring a file of this machine's in: here the JSON deck
    // beside the folder stands for any file outside it.
    Damage(description: "a media file that is a link to a file outside the folder") { folder in
      let name = try firstMedia(in: folder)
      try FileManager.default.removeItem(atPath: folder + "/media/" + name)
      try FileManager.default.createSymbolicLink(
        atPath: folder + "/media/" + name, withDestinationPath: "../../deck.json")
      let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
      return [
        "deckport: error: \(folder)/deckport-dir.json: at media[0]: the media file '\(folder)/media/\(name)' is a symbolic link to \(URL(fileURLWithPath: real).deletingLastPathComponent().path)/deck.json, outside the folder \(real); only the folder's own files are read\n"
      ]
    },
    Damage(description: "a note file that is a link to a file outside the folder") { folder in
      let file = try noteFile(in: folder, containing: "\"guid\"")
      try FileManager.default.removeItem(atPath: file)
      try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "../../deck.json")
      let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
      return [
        "deckport: error: \(file): cannot be read (it is a symbolic link to \(URL(fileURLWithPath: real).deletingLastPathComponent().path)/deck.json, outside the folder \(real); only the folder's own files are read)\n"
      ]
    },
    Damage(description: "a file in notes/ that holds no note") { folder in
      try Data("{}\n".utf8).write(to: URL(fileURLWithPath: folder + "/notes/extra.json"))
      return ["\(folder)/notes/extra.json: at note: the key \"note\" is missing"]
    },
  ]

  @Test("a damaged folder is refused, naming the file and the place in it; nothing is written", arguments: damages)
  func damagedFolder(damage: Damage) throws {
    let scratch = try TemporaryDirectory()
    let (_, folder) = try Self.jsonAndFolder("anki/legacy2_sched.apkg", in: scratch)
    let expected = try damage.apply(folder)
    let output = scratch.path(for: "out.apkg")
    let run = try CommandRun.deckport(["convert", folder, output])
    #expect(run.status != 0)
    for text in expected { #expect(run.standardError.contains(text), "\(run.standardError)") }
    #expect(!FileManager.default.fileExists(atPath: output))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["deck.json", "dir"])
  }

  @Test("--out-dir writes each deck as a folder named after its input")
  func batch() throws {
    let scratch = try TemporaryDirectory()
    let out = scratch.path(for: "out")
    let run = try CommandRun.deckport([
      "convert", Fixtures.path("anki/legacy1.apkg"), Fixtures.path("anki/latest.colpkg"), "--out-dir", out, "--to",
      "json-dir",
    ])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["latest", "legacy1"])
    #expect(FileManager.default.fileExists(atPath: out + "/legacy1/deckport-dir.json"))
  }
}
