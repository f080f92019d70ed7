import DeckCore
import Foundation

/// Writes records as a JSON file: the whole file as an array, or, in an existing file whose top
/// value is an object, the array under its key with every other key kept.
struct JSONFileWriter: StorageFileWriter {
  let place: String
  let warnings: [Diagnostic]
  private let location: SourceLocation
  private let bytes: Data
  private let key: String?
  private let original: AppValue?
  private let expected: AppRecords
  private let readOptions: AppStorageOptions

  init(records: AppRecords, destination: String, exists: Bool, options: AppStorageOptions) throws {
    location = SourceLocation(file: destination)
    var found: JSONRecordFile.Found?
    if exists {
      let data = try AppStorageReader.contents(of: destination)
      if case .object? = try? AppValue(json: data) {
        found = try JSONRecordFile(location: location).read(data, key: options.key)
      }
    }
    bytes = try JSONRecordFile.encode(records, replacingIn: found, location: location)
    key = found?.key
    original = found?.root
    expected = AppRecordProjection.json(records)
    place = key.map { "key '\($0)'" } ?? "the top-level array"
    readOptions = AppStorageOptions(
      key: key, profile: records.profile.map(AppProfileChoice.named) ?? .generic, jsonDates: records.jsonDates)
    warnings = AppRecordProjection.changes(from: records, to: expected, storage: "a JSON file", at: location)
  }

  mutating func produce(at path: String) throws {
    try writingFile(at: location) { try bytes.write(to: URL(fileURLWithPath: path)) }
  }

  func verify(at path: String) throws {
    let data = try AppStorageReader.contents(of: path)
    let found = try JSONRecordFile(location: location).read(data, key: key)
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
