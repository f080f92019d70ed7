import DeckCSV
import DeckCore
import DeckTestSupport
import Foundation
import Testing

@Suite("CSV reader: damaged input never crashes")
struct CSVRobustnessTests {
  static let options: [CSVOptions] = [
    CSVOptions(),
    CSVOptions(hasHeaderRow: true),
    CSVOptions(columns: try? ColumnMapping(parsing: "front,back,tags,deck,guid,notetype")),
    CSVOptions(separator: .comma, noteType: "Unknown type"),
  ]

  @Test(
    "thousands of mutated fixtures: each reads, or fails with a DeckError naming a line", arguments: CSVTruth.fixtures)
  func mutations(_ fixture: String) throws {
    let original = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture))))
    var generator = SplitMix(seed: UInt64(fixture.utf8.count) &* 7919)
    let inserts: [[UInt8]] = [
      [0x22], [0x22, 0x22], [0x0A], [0x0D], [0x09], [0x2C], [0x23], [0xFF], [0xC3], [0xEF, 0xBB, 0xBF], [0x00],
    ]
    for round in 0..<300 {
      var bytes = original
      for _ in 0..<Int(generator.next() % 4 + 1) {
        let position = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count + 1))
        switch generator.next() % 3 {
        case 0: bytes.insert(contentsOf: inserts[Int(generator.next() % UInt64(inserts.count))], at: position)
        case 1: if position < bytes.count { bytes.remove(at: position) }
        default: bytes = Array(bytes.prefix(position))
        }
      }
      let options = Self.options[round % Self.options.count]
      do {
        let (collection, _) = try CSVReader(options: options).read(data: Data(bytes), name: "m.csv")
        #expect(
          collection.notes.allSatisfy { note in
            collection.noteTypes.first { $0.id == note.noteTypeID }?.fields.count == note.fields.count
          })
        #expect(Set(collection.notes.map(\.guid)).count == collection.notes.count)
      } catch let error as DeckError {
        #expect(error.description.hasPrefix("m.csv"))
      }
    }
  }
}
