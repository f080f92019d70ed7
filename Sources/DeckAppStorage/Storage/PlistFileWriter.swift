import DeckCore
import Foundation
import PlistCodec

/// Writes records under one key of a plist: into an existing plist by replacing only that key
/// (an XML plist edited in place, a binary plist rewritten with every other key unchanged and in
/// order, the format kept), or as a new binary plist holding only that key.
struct PlistFileWriter: StorageFileWriter {
  let place: String
  let warnings: [Diagnostic]
  private let location: SourceLocation
  private let key: String?
  private let bytes: Data
  private let format: PlistDocument.Format
  private let original: PlistDocument?
  /// How many characters XML 1.0 cannot hold the existing XML plist held (another program may
  /// have written them; they stay where they are).
  private let heldNonXMLCharacters: Int
  private let expected: AppRecords
  private let readOptions: AppStorageOptions

  init(records: AppRecords, destination: String, exists: Bool, options: AppStorageOptions) throws {
    location = SourceLocation(file: destination)
    var original: PlistDocument?
    var key: String? = options.key
    var form = PlistRecordForm(options.plistStyle)
    var heldNonXMLCharacters = 0
    if exists {
      let data = try AppStorageReader.contents(of: destination)
      let document = try PlistRecordReader.document(data, location: location)
      original = document
      if document.format == .xml { heldNonXMLCharacters = XMLCharacterAudit.audit(of: data).count }
      switch document.root {
      case .dictionary(let dictionary):
        if key == nil {
          let candidates = PlistRecordReader.keysHoldingRecords(dictionary)
          if candidates.count > 1 { throw RecordKeyChoice.severalKeys(candidates, holding: "records", at: location) }
          key = candidates.first ?? AppStorageOptions.defaultPlistKey
        }
        // A key given in another Unicode composition than the plist's is the key it can only
        // mean, spelled as the plist spells it.
        if let named = key, let position = NameLookup.position(of: named, in: dictionary.keys) {
          key = dictionary.entries[position].key
        }
        if let chosen = key, let existing = dictionary[chosen] {
          do {
            form = try PlistRecordReader(location: location).read(data, key: chosen).form
          } catch {
            throw DeckError(
              .invalidRequest, at: location.item("key '\(chosen)'"),
              "holds \(existing.typeDescription) that is not records; deckport only replaces a key that holds records, so nothing was written"
            )
          }
        }
      case .array:
        // One array of records has no keys: a key names no place in it, as when it is read, and
        // the array is written again whole (with the records it held, merged in by the caller).
        key = nil
        form = .native
      default:
        throw DeckError(
          .invalidRequest, at: location,
          "the plist's top value is \(document.root.typeDescription), not a dictionary of keys")
      }
    } else {
      key = key ?? AppStorageOptions.defaultPlistKey
    }
    self.key = key
    self.original = original
    self.heldNonXMLCharacters = heldNonXMLCharacters
    self.format = original?.format ?? .binary
    let value = try form.encode(records, at: location.item(key.map { "key '\($0)'" } ?? "the top-level array"))
    do {
      if let original, let key {
        bytes = try original.replacing(key: key, with: value)
      } else if let key {
        bytes = try PlistDocument(format: format, root: .dictionary(PlistDictionary([.init(key: key, value: value)])))
          .data()
      } else {
        bytes = try PlistDocument(format: format, root: value).data()
      }
    } catch {
      // The path starts at the document's top value: under a key, its first step is that key.
      let valuePath = error.pathText(droppingFirst: key == nil ? 0 : 1)
      throw DeckError(
        .invalidRequest,
        at: ValuePath.location(valuePath, in: location.item(key.map { "key '\($0)'" } ?? "the top-level array")),
        error.message)
    }
    switch form {
    case .jsonData, .jsonString: expected = AppRecordProjection.json(records)
    case .native: expected = AppRecordProjection.plist(records, xml: format == .xml)
    case .plistData(let dataFormat): expected = AppRecordProjection.plist(records, xml: dataFormat == .xml)
    }
    let keyPlace = key.map { "key '\($0)'" } ?? "the top-level array"
    place = "\(keyPlace) (\(form.description) in \(format.phrase))"
    readOptions = AppStorageOptions(
      key: key, profile: records.profile.map(AppProfileChoice.named) ?? .generic, jsonDates: records.jsonDates)
    var warnings =
      form.isJSON
      ? [DroppedDateFractions.warning(records, in: "the key", at: location.item(keyPlace))].compactMap { $0 } : []
    warnings += AppRecordProjection.changes(
      from: records, to: expected, storage: "a plist (\(form.description))", at: location)
    if bytes.count >= 4 << 20 {
      warnings.append(
        Diagnostic(
          .plistSize, at: location,
          "the plist is \(bytes.count) bytes; iOS and macOS refuse to store 4 MiB (4194304 bytes) or more in UserDefaults and may drop writes"
        ))
    } else if bytes.count >= 1 << 20 {
      warnings.append(
        Diagnostic(
          .plistSize, at: location, "the plist is \(bytes.count) bytes; watchOS refuses 1 MiB or more in UserDefaults"
        ))
    }
    self.warnings = warnings
  }

  mutating func produce(at path: String) throws {
    try writingFile(at: location) { try bytes.write(to: URL(fileURLWithPath: path)) }
  }

  func verify(at path: String) throws {
    let data = try AppStorageReader.contents(of: path)
    let document = try PlistRecordReader.document(data, location: location)
    guard document.format == format else {
      throw DeckError(
        .writeFailed, at: location,
        "verification failed: the plist was \(format.rawValue) and came back \(document.format.rawValue)")
    }
    // deckport's reader takes what XML parsers refuse, so the text is checked on its own.
    if format == .xml {
      let audit = XMLCharacterAudit.audit(of: data)
      if audit.count > heldNonXMLCharacters, let first = audit.first {
        throw DeckError(
          .writeFailed, at: location,
          "verification failed: the XML plist holds \(first.description), a character XML 1.0 cannot hold (\(audit.count) in all, \(heldNonXMLCharacters) before the write); XML parsers would refuse the whole file"
        )
      }
    }
    let found = try PlistRecordReader(location: location).read(data, key: key)
    let actual = try AppStorageReader.applyProfile(readOptions, to: found.records, location: location)
    try requireEqual(
      expected: expected.records, actual: actual.records, labels: expected.label(ofRecord:), at: location)
    guard let original, let key, case .dictionary(let before) = original.root,
      case .dictionary(let after) = document.root
    else { return }
    let keptBefore = before.entries.filter { !$0.key.isExactly(key) }
    let keptAfter = after.entries.filter { !$0.key.isExactly(key) }
    guard keptBefore == keptAfter else {
      let changed = zip(keptBefore, keptAfter).first { $0 != $1 }.map { "'\($0.0.key)'" } ?? "the list of keys"
      throw DeckError(
        .writeFailed, at: location, "verification failed: the other keys of the plist changed (\(changed))")
    }
  }
}
