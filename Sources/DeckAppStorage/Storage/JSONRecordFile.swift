import DeckCore
import Foundation

/// A JSON file of app records: an array of objects (Flashzilla's `cards.json`), or an object
/// holding such an array under a key. A deckport deck document (`"format": "deckport-deck"`) is
/// told apart by its shape and refused, since it holds a deck, not records.
struct JSONRecordFile {
  /// What was found.
  struct Found {
    var root: AppValue
    /// The key of the array in a top-level object, or nil when the file is the array.
    var key: String?
    var records: AppRecords
  }

  let location: SourceLocation

  /// Reads the file's bytes and the records in them (with `keyOnlyWhereKeyed`, a top-level array
  /// is read whole even when a key is named).
  ///
  /// - Throws: ``DeckError`` for invalid JSON (with line and column), a deck document, a missing
  ///   key, and a record that is not an object.
  func read(_ data: Data, key: String?, keyOnlyWhereKeyed: Bool = false) throws -> Found {
    let root: AppValue
    do {
      root = try AppValue(json: data)
    } catch {
      var place = location
      place.line = error.line
      place.column = error.column
      throw DeckError(.wrongFormat, at: place, "invalid JSON: \(error.message)")
    }
    let name = URL(fileURLWithPath: location.file).deletingPathExtension().lastPathComponent
    switch root {
    case .array:
      if let key, !keyOnlyWhereKeyed {
        throw DeckError(
          .missingPart, at: location.item("key '\(key)'"), "the file is an array of records, which has no keys")
      }
      return Found(
        root: root, key: nil,
        records: try JSONRecordList.records(in: root, name: name, location: location, what: "the file"))
    case .object(let object):
      if case .string("deckport-deck")? = object["format"] {
        throw DeckError(
          .wrongFormat, at: location,
          "a deckport deck document (\"format\": \"deckport-deck\"), not app records; convert decks with `deckport convert`"
        )
      }
      let chosen = try RecordKeyChoice.key(
        key, candidates: Self.keysHoldingRecords(object), holding: "arrays of records",
        noneFound: "the JSON object holds no array of records; name its key with \(setting: .recordKey)", at: location)
      guard let value = object[chosen] else {
        throw DeckError(
          .missingPart, at: location.item("key '\(chosen)'"),
          "no such key in the JSON object (its keys: \(object.keys.map { "'\($0)'" }.joined(separator: ", ")))")
      }
      let records = try JSONRecordList.records(
        in: value, name: chosen, location: location.item("key '\(chosen)'"), what: "the key")
      return Found(root: root, key: chosen, records: records)
    default:
      throw DeckError(
        .corrupt, at: location, "the file holds \(JSONRecordList.describe(root)), not an array of records")
    }
  }

  /// The file's new bytes: `records` as the whole array, or under `key` of `existing` (every
  /// other key kept as it was).
  static func encode(_ records: AppRecords, replacingIn existing: Found?, location: SourceLocation) throws -> Data {
    let array = AppValue.array(records.records.map(AppValue.object))
    var root = array
    if let existing, let key = existing.key, case .object(var object) = existing.root {
      object[key] = array
      root = .object(object)
    }
    do {
      return try root.jsonData(dates: records.jsonDates)
    } catch {
      throw DeckError(.invalidRequest, at: ValuePath.location(error.path, in: location), error.message)
    }
  }

  /// The keys of `object` whose values are arrays of objects.
  private static func keysHoldingRecords(_ object: AppRecord) -> [String] {
    object.fields.filter { field in
      guard case .array(let items) = field.value else { return false }
      return items.allSatisfy { $0.type == .object }
    }.map(\.key)
  }
}
