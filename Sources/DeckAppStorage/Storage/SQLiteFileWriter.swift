import DeckCore
import DeckIO
import Foundation

/// Writes records as one record type of a database in deckport's SQLite schema: a new database,
/// or a copy of the existing one in which that record type's table is replaced and every other
/// record type kept.
///
/// The records given are the whole new table: into an existing record type, the records it held
/// merged with the new ones by ``AppStorageWriter``, which read that table whole to do so (and
/// refused a destination it could not read whole). This writer reads only the other record
/// types, to check they survive.
struct SQLiteFileWriter: StorageFileWriter {
  let place: String
  let warnings: [Diagnostic] = []
  private let records: AppRecords
  private let destination: String
  private let exists: Bool
  private let location: SourceLocation
  /// The other record types of the existing file, to check they survive.
  private let others: [AppRecords]

  init(records: AppRecords, destination: String, exists: Bool, options: AppStorageOptions) throws {
    var records = records
    if let entity = options.entity { records.name = entity }
    self.destination = destination
    self.exists = exists
    let location = SourceLocation(file: destination)
    self.location = location
    var others: [AppRecords] = []
    if exists {
      let snapshot = try SQLiteSnapshot(of: destination, location: location)
      let database = try snapshot.open(location: location)
      switch try SQLiteLayout.detect(database, location: location) {
      case .coreData:
        throw DeckError(
          .invalidRequest, at: location,
          "is a Core Data/SwiftData store, not deckport's SQLite layout; write into it in the core-data format")
      case .empty: break
      case .deckport:
        let reader = SQLiteRecordReader(database: database, location: location)
        let types = try reader.recordTypes()
        // A name in another Unicode composition than the file's (a Mac's file name is
        // decomposed) is the record type it can only mean, under the name the file spells.
        if let position = NameLookup.position(of: records.name, in: types.map(\.name)) {
          records.name = types[position].name
        }
        // Every other record type is read whole: a cell deckport cannot read (text in an INTEGER
        // column) belongs to a record that writing would lose. The one being replaced is not read
        // here: the caller (AppStorageWriter) read it whole to merge into it, refusing the write
        // when it could not, and the merged records replace it.
        for type in types where !type.name.isExactly(records.name) {
          do {
            others.append(try reader.read(recordType: type.name))
          } catch let error as DeckError where error.kind == .corrupt {
            throw UnreadableDestination.refusal(error)
          }
        }
      }
    }
    try SQLiteRecordSchema.requireStorable(records, at: location)
    self.records = records
    place = "record type '\(records.name)'"
    self.others = others
  }

  mutating func produce(at path: String) throws {
    let scratch = try TemporaryDirectory(prefix: "deckport-sqlite-")
    let working: String
    var keep: SQLiteSnapshot?
    if exists {
      let snapshot = try SQLiteSnapshot(of: destination, location: location)
      keep = snapshot
      working = snapshot.path
    } else {
      working = scratch.path(for: "new.sqlite")
    }
    try Self.write(records, databasePath: working, location: location)
    try writingFile(at: location) { try FileManager.default.copyItem(atPath: working, toPath: path) }
    withExtendedLifetime(keep) {}
  }

  /// Writes the records into the database at `databasePath`, then folds any `-wal` into the
  /// main file and closes it, so the main file alone is complete.
  private static func write(_ records: AppRecords, databasePath: String, location: SourceLocation) throws {
    let database = try SQLiteDatabase(path: databasePath, readOnly: false, location: location)
    try SQLiteRecordWriter(database: database, location: location).write(records)
    try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
  }

  func verify(at path: String) throws {
    let snapshot = try SQLiteSnapshot(of: path, location: location)
    let database = try snapshot.open(location: location)
    let reader = SQLiteRecordReader(database: database, location: location)
    let actual = try reader.read(recordType: records.name, expected: records.records)
    try requireEqual(expected: records.records, actual: actual.records, labels: records.label(ofRecord:), at: location)
    for other in others {
      let now = try reader.read(recordType: other.name)
      guard now.records == other.records else {
        throw DeckError(.writeFailed, at: location, "verification failed: the record type '\(other.name)' changed")
      }
    }
  }
}
