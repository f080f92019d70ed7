import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAppStorage

/// The library's whole-store migration on CoreDataPlus's store (made by Core Data: inheritance
/// Car ← SportCar ← ExpensiveSportCar, Car.owner ⟷ Person.cars, a uniqueness constraint on
/// Person). The independent check of every object and link is in `Tests/stores`.
@Suite("Whole-store migration")
struct WholeStoreMigrationTests {
  /// A copy of the store, and a second copy emptied of rows with every `Z_MAX` raised by 1000.
  private func stores(in scratch: TemporaryDirectory) throws -> (source: String, destination: String) {
    let source = scratch.path(for: "source.sqlite")
    let destination = scratch.path(for: "destination.sqlite")
    try FileManager.default.copyItem(atPath: Fixtures.path("apple-stores/SampleModel_V1.sqlite"), toPath: source)
    try FileManager.default.copyItem(atPath: source, toPath: destination)
    let database = try SQLiteDatabase(path: destination, readOnly: false, location: SourceLocation(file: destination))
    try database.execute("DELETE FROM ZCAR; DELETE FROM ZPERSON; UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1000")
    return (source, destination)
  }

  @Test("every entity is copied under new keys and every link follows its target")
  func copiesAndRelinks() throws {
    let scratch = try TemporaryDirectory()
    let (source, destination) = try stores(in: scratch)
    let report = try AppMigrator().migrateStore(
      source: source, destination: destination, options: .init(existing: .replace))
    #expect(report.entities.map(\.entity) == ["Car", "SportCar", "ExpensiveSportCar", "Person"])
    #expect(report.entities.map(\.merge.added) == [115, 5, 5, 20])
    // Person.cars and Car.owner are two sides of one link: each car with an owner counts on both.
    let carLinks = report.entities.prefix(3).reduce(0) { $0 + $1.links }
    #expect(report.entities[3].links == carLinks)

    let database = try SQLiteDatabase(path: destination, readOnly: true, location: SourceLocation(file: destination))
    let keys = try database.prepare("SELECT min(Z_PK) FROM ZCAR")
    #expect(try keys.step())
    #expect(keys.int64(0) > 1000)
    // Each copied car's owner is the copied person with the same name as the source's owner.
    let owners =
      "SELECT c.ZNUMBERPLATE, p.ZFIRSTNAME, p.ZLASTNAME FROM ZCAR c JOIN ZPERSON p ON p.Z_PK = c.ZOWNER ORDER BY 1"
    let original = try SQLiteDatabase(path: source, readOnly: true, location: SourceLocation(file: source))
    #expect(try rows(owners, in: database) == rows(owners, in: original))
    #expect(try !rows(owners, in: database).isEmpty)
  }

  @Test("a second run adds and updates nothing")
  func secondRun() throws {
    let scratch = try TemporaryDirectory()
    let (source, destination) = try stores(in: scratch)
    _ = try AppMigrator().migrateStore(source: source, destination: destination, options: .init(existing: .replace))
    let again = try AppMigrator().migrateStore(
      source: source, destination: destination, options: .init(existing: .replace))
    #expect(again.entities.allSatisfy { $0.merge.added == 0 && $0.merge.updated == 0 && $0.links == 0 })
    #expect(again.entities.map(\.merge.unchanged) == [115, 5, 5, 20])
  }

  @Test("a file that is not a store is refused, naming it")
  func refusesOtherKinds() throws {
    let scratch = try TemporaryDirectory()
    let (_, destination) = try stores(in: scratch)
    let records = scratch.path(for: "records.json")
    try Data("[{\"a\": 1}]".utf8).write(to: URL(fileURLWithPath: records))
    let error = try #require(throws: DeckError.self) {
      try AppMigrator().migrateStore(source: records, destination: destination, options: .init(existing: .replace))
    }
    #expect(error.description.contains("records.json"))
    #expect(error.message.contains("not a Core Data/SwiftData store"))
  }

  private func rows(_ sql: String, in database: SQLiteDatabase) throws -> [[String]] {
    let statement = try database.prepare(sql)
    var rows: [[String]] = []
    while try statement.step() { rows.append((0..<statement.columnCount).map { statement.text($0) }) }
    return rows
  }
}
