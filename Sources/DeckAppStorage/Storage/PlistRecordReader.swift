import DeckCore
import Foundation
import PlistCodec

/// Finds app records in a plist: under a key of the top-level dictionary (a UserDefaults domain)
/// as JSON data, a JSON string, encoded plist data or an array of dictionaries; or, in a plist
/// whose top value is an array of dictionaries, that array.
struct PlistRecordReader {
  /// What was found.
  struct Found {
    var document: PlistDocument
    /// The key, or nil when the top value itself is the array of records.
    var key: String?
    var form: PlistRecordForm
    var records: AppRecords
  }

  let location: SourceLocation

  /// Reads the plist file's bytes and the records under `key` (or the one key that holds records;
  /// with `keyOnlyWhereKeyed`, a top-level array is read whole even when a key is named).
  ///
  /// - Throws: ``DeckError`` for bytes that are not a plist, a missing key, a key that holds no
  ///   records, JSON under the key that does not decode, and a record that is not a dictionary,
  ///   each naming the key and the record.
  func read(_ data: Data, key: String?, keyOnlyWhereKeyed: Bool = false) throws -> Found {
    let document = try Self.document(data, location: location)
    switch document.root {
    case .dictionary(let dictionary):
      let named = try RecordKeyChoice.key(
        key, candidates: Self.keysHoldingRecords(dictionary), holding: "records",
        noneFound: "no key holds records (\(Self.describeKeys(dictionary))); name the key with \(setting: .recordKey)",
        at: location)
      guard let position = NameLookup.position(of: named, in: dictionary.keys) else {
        throw DeckError(
          .missingPart, at: location.item("key '\(named)'"),
          "no such key in the plist (\(Self.describeKeys(dictionary)))")
      }
      // The key as the plist spells it, the one the way back replaces.
      let chosen = dictionary.entries[position].key
      let value = dictionary.entries[position].value
      let (form, records) = try self.records(in: value, key: chosen)
      return Found(document: document, key: chosen, form: form, records: records)
    case .array:
      if let key, !keyOnlyWhereKeyed {
        throw DeckError(
          .missingPart, at: location.item("key '\(key)'"), "the plist's top value is an array, which has no keys")
      }
      let name = URL(fileURLWithPath: location.file).deletingPathExtension().lastPathComponent
      let records = try nativeRecords(document.root, key: nil, name: name)
      return Found(document: document, key: nil, form: .native, records: records)
    default:
      throw DeckError(
        .corrupt, at: location, "the plist's top value is \(document.root.typeDescription), not a dictionary of keys")
    }
  }

  /// The plist in `data`, or an error naming the file and the byte or line of the damage.
  static func document(_ data: Data, location: SourceLocation) throws -> PlistDocument {
    do {
      return try PlistDocument(data: data)
    } catch {
      let isPlist = data.starts(with: BinaryPlistReader.magic) || XMLPlistReader.looksLikeXMLPlist(data)
      guard isPlist else { throw DeckError(.wrongFormat, at: location, error.message) }
      var place = location
      place.line = error.line
      if error.line == nil { place.byteOffset = error.byteOffset.map(Int64.init) }
      throw DeckError(.corrupt, at: place, "the plist is damaged: \(error.message)")
    }
  }

  /// The keys of `dictionary` whose values look like records.
  static func keysHoldingRecords(_ dictionary: PlistDictionary) -> [String] {
    dictionary.entries.filter { entry in
      switch entry.value {
      case .data(let data):
        let head = data.prefix(64).drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return head.first == UInt8(ascii: "[") || data.starts(with: BinaryPlistReader.magic)
      case .string(let text): return text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("[")
      case .array(let items):
        return !items.isEmpty && items.allSatisfy { if case .dictionary = $0 { true } else { false } }
      default: return false
      }
    }.map(\.key)
  }

  private static func describeKeys(_ dictionary: PlistDictionary) -> String {
    guard !dictionary.entries.isEmpty else { return "it has no keys" }
    let keys = NameLookup.listed(Array(dictionary.keys.prefix(12)))
    return "its keys: " + keys + (dictionary.entries.count > 12 ? ", …" : "")
  }

  private func records(in value: PlistValue, key: String) throws -> (PlistRecordForm, AppRecords) {
    let place = location.item("key '\(key)'")
    switch value {
    case .data(let data):
      if data.starts(with: BinaryPlistReader.magic) || XMLPlistReader.looksLikeXMLPlist(data) {
        let nested: PlistDocument
        do {
          nested = try PlistDocument(data: data)
        } catch {
          throw DeckError(.corrupt, at: place, "the plist data under the key does not decode: \(error.text)")
        }
        if let archive = KeyedArchive(nested.root) {
          let root = archive.dictionary(archive.top["root"]).flatMap { archive.className($0) } ?? "an object"
          throw DeckError(
            .wrongFormat, at: place,
            "holds an NSKeyedArchiver archive (root class \(root)), not Codable records; deckport reads JSON data, a JSON string, PropertyListEncoder data or an array of dictionaries"
          )
        }
        return (.plistData(nested.format), try nativeRecords(nested.root, key: key, name: key))
      }
      return (.jsonData, try jsonRecords(data, key: key, kind: "JSON data"))
    case .string(let text):
      return (.jsonString, try jsonRecords(Data(text.utf8), key: key, kind: "JSON string"))
    case .array:
      return (.native, try nativeRecords(value, key: key, name: key))
    default:
      throw DeckError(
        .corrupt, at: place,
        "holds \(value.typeDescription), not records (JSON data, a JSON string, or an array of dictionaries)")
    }
  }

  private func jsonRecords(_ data: Data, key: String, kind: String) throws -> AppRecords {
    let place = location.item("key '\(key)'")
    guard !data.isEmpty else { return AppRecords(name: key, records: []) }
    let value: AppValue
    do {
      value = try AppValue(json: data)
    } catch {
      throw DeckError(
        .corrupt, at: place,
        "the \(kind) does not decode: line \(error.line), column \(error.column) of the JSON: \(error.message)")
    }
    return try JSONRecordList.records(in: value, name: key, location: place, what: "the \(kind)")
  }

  private func nativeRecords(_ value: PlistValue, key: String?, name: String) throws -> AppRecords {
    let place = key.map { location.item("key '\($0)'") } ?? location
    guard case .array(let items) = value else {
      throw DeckError(.corrupt, at: place, "holds \(value.typeDescription), not an array of records")
    }
    let records = try items.enumerated().map { index, item -> AppRecord in
      let record = AppRecords.label(ofRecordAt: index)
      let recordPlace = key.map { location.item("key '\($0)': \(record)") } ?? location.item(record)
      guard case .dictionary = item,
        case .object(let record) = try PlistRecordForm.app(item, path: "[\(index)]", at: place)
      else {
        throw DeckError(.corrupt, at: recordPlace, "is \(item.typeDescription), not a dictionary")
      }
      return record
    }
    return AppRecords(name: name, records: records)
  }
}
