import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Writes records as a JSON file: the whole file as an array, or, in an existing file whose top
/// value is an object, the array under its key with every other key kept. The text is written a
/// piece at a time, pictures encoded as they go.
struct JSONFileWriter: StorageFileWriter {
  let place: String
  let warnings: [Diagnostic]
  private let location: SourceLocation
  private let content: AppValue
  private let dates: JSONDateEncoding
  private let key: String?
  private let original: AppValue?
  private let expected: AppRecords
  private let readOptions: AppStorageOptions

  init(records: AppRecords, destination: String, exists: Bool, options: AppStorageOptions) throws {
    location = SourceLocation(file: destination)
    let profile = records.profile.map(AppProfileChoice.named) ?? .generic
    var found: JSONRecordFile.Found?
    if exists {
      // Only a file read whole is changed: one it cannot read (not JSON, a number beyond 64 bits,
      // a key twice, an item that is no record) holds what writing it again would lose. One
      // array of records has no keys: a key names no place in it, and it is written again
      // whole, with the records it held (merged in by the caller) and the new ones.
      found = try Self.held(in: JSONRecordFile(location: location), key: options.key, profile: profile)
    }
    content = try JSONRecordFile.content(records, replacingIn: found, location: location)
    dates = records.jsonDates
    key = found?.key
    original = found?.root
    expected = AppRecordProjection.json(records)
    place = key.map { "key '\($0)'" } ?? "the top-level array"
    readOptions = AppStorageOptions(key: key, profile: profile, jsonDates: records.jsonDates)
    warnings =
      [DroppedDateFractions.warning(records, in: "the file", at: location)].compactMap { $0 }
      + AppRecordProjection.changes(from: records, to: expected, storage: "a JSON file", at: location)
  }

  /// What the existing file holds: its records and everything around them.
  ///
  /// - Throws: ``DeckError`` naming the file (with the line and column of text that is not JSON
  ///   as deckport reads it, or the record that is not an object) when it cannot be read whole;
  ///   nothing is written then.
  private static func held(in file: JSONRecordFile, key: String?, profile: AppProfileChoice) throws
    -> JSONRecordFile.Found
  {
    let document: JSONRecordFile.Document
    do {
      document = try file.document()
    } catch let error as DeckError where error.kind == .wrongFormat {
      throw UnreadableDestination.refusal(error)
    }
    do {
      return try file.read(document, key: key, keyOnlyWhereKeyed: true, profile: profile)
    } catch let error as DeckError where error.kind == .corrupt {
      throw UnreadableDestination.refusal(error)
    }
  }

  mutating func produce(at path: String) throws {
    do {
      try FileSink.writing(to: path) { sink in try content.writeJSON(dates: dates, into: sink.write) }
    } catch let error as DeckError {
      // The sink names the temporary file; the user named the destination.
      throw DeckError(.writeFailed, at: location, error.wording)
    }
  }

  func verify(at path: String) throws {
    let file = JSONRecordFile(location: location)
    let found = try file.read(
      file.document(readingFrom: path), key: key, profile: readOptions.profile, expected: expected.records)
    let actual = try AppStorageReader.applyProfile(readOptions, to: found.records, location: location)
    try requireEqual(
      expected: expected.records, actual: actual.records, labels: expected.label(ofRecord:), at: location)
    if let key, case .object(var before)? = original, case .object(var after) = found.root {
      before[key] = nil
      after[key] = nil
      guard before == after else {
        throw DeckError(.writeFailed, at: location, "verification failed: the file's other keys changed")
      }
    }
  }
}
