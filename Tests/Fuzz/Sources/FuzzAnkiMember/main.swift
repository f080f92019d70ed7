import DeckAnki
import DeckCore
import DeckIO
import Foundation
import FuzzSupport

// One member of a good package replaced by fuzz data, so the fuzzer reaches the readers behind
// the zip layer: the first byte picks the package and member (and, by its high bit, whether the
// package is read as a collection package, whose settings are read too), the rest is the
// member's bytes.
let fixtures = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/anki")
let targets: [(package: String, member: String)] = [
  ("latest_sched.apkg", "meta"), ("latest_sched.apkg", "media"), ("latest_sched.apkg", "collection.anki21b"),
  ("latest_sched.apkg", "0"), ("legacy2_sched.apkg", "media"), ("legacy2_sched.apkg", "collection.anki21"),
  ("legacy2_sched.apkg", "meta"), ("genanki_legacy1.apkg", "collection.anki2"),
]
/// Each package's members, read once.
let members: [String: [(name: String, data: Data)]] = Dictionary(
  uniqueKeysWithValues: Set(targets.map(\.package)).map { package in
    let path = fixtures.appendingPathComponent(package).path
    guard let zip = try? ZipReader(path: path, location: SourceLocation(file: path)) else {
      fatalError("fixture missing: \(path)")
    }
    return (package, zip.entryNames.compactMap { name in (try? zip.readAll(name, limit: 1 << 26)).map { (name, $0) } })
  })
let scratch = FuzzScratchFile(suffix: ".apkg")

runFuzzer { data in
  guard let selector = data.first else { return }
  let target = targets[Int(selector) % targets.count]
  let replacement = data.dropFirst()
  do {
    let writer = try ZipWriter(path: scratch.path, location: SourceLocation(file: scratch.path))
    for member in members[target.package] ?? [] {
      try writer.addData(
        name: member.name, data: member.name == target.member ? Data(replacement) : member.data,
        compression: .stored)
    }
    try writer.close()
  } catch {
    fatalError("cannot build the package: \(error)")
  }
  do {
    let contents = try AnkiPackageReader().read(path: scratch.path, kind: selector & 0x80 != 0 ? .colpkg : nil)
    try readAllMedia(contents.collection)
  } catch is DeckError {
  } catch {
    fatalError("not a DeckError: \(error)")
  }
}
