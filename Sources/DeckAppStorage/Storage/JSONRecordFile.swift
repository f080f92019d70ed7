import DeckCore
import DeckIO
import Foundation
import JSONCore

/// A JSON file of app records: an array of objects (Flashzilla's `cards.json`), or an object
/// holding such an array under a key. A deckport deck document (`"format": "deckport-deck"`) is
/// told apart by its shape and refused, since it holds a deck, not records.
///
/// The file is mapped, not read into memory, and its long strings are left in it while the
/// document is parsed: a string under a key the records' profile types as data is decoded from
/// base64 straight into ``SpilledBytes``, any other one is read as text.
struct JSONRecordFile {
  /// What was found.
  struct Found {
    var root: AppValue
    /// The key of the array in a top-level object, or nil when the file is the array.
    var key: String?
    var records: AppRecords
  }

  let location: SourceLocation

  /// Strings of this many bytes of text or more are left in the file until their key's type is
  /// known (SpilledBytes keeps decoded values from 128 KiB; their text is a third longer).
  private static let longStringBytes = SpilledBytes.threshold

  /// The parsed file (or the file at `path`, a writer's new file, named in errors as this one),
  /// its long strings left in the mapped file.
  ///
  /// - Throws: ``DeckError`` when the file cannot be read, or is not JSON (with line and column).
  func document(readingFrom path: String? = nil) throws -> Document {
    let file = try MappedFile(path: path ?? location.file, location: location)
    let value: JSONValue
    do {
      value = try JSONParser.parse(
        source: MappedSource(file: file), leavingStringsFrom: Self.longStringBytes, options: AppValue.jsonOptions)
    } catch {
      // The error may be of zeros read where the file was cut short.
      try file.requireUnchanged()
      var place = location
      place.line = error.line
      place.column = error.column
      throw DeckError(.wrongFormat, at: place, "invalid JSON: \(error.message)")
    }
    try file.requireUnchanged()
    return Document(value: value, file: file)
  }

  /// A parsed file and the mapping its long strings are left in.
  struct Document {
    /// The file's value.
    var value: JSONValue
    fileprivate let file: MappedFile
  }

  /// Reads the records in `document` (with `keyOnlyWhereKeyed`, a top-level array is read whole
  /// even when a key is named), decoding the base64 strings of the keys `profile` types as data.
  ///
  /// With `expected` (a writer's check of what it wrote), a long string that encodes exactly the
  /// bytes the expected record at its place holds under its key is compared chunk by chunk and
  /// taken as that value, so a check does not decode the pictures into copies.
  ///
  /// - Throws: ``DeckError`` for a deck document, a missing key, and a record that is not an
  ///   object.
  func read(
    _ document: Document, key: String?, keyOnlyWhereKeyed: Bool = false, profile: AppProfileChoice,
    expected: [AppRecord]? = nil
  ) throws -> Found {
    // The long strings are read from the mapping here: what they gave is not the file's if it
    // changed meanwhile.
    do {
      let found = try read(
        document.value, key: key, keyOnlyWhereKeyed: keyOnlyWhereKeyed, profile: profile, expected: expected)
      try document.file.requireUnchanged()
      return found
    } catch {
      try document.file.requireUnchanged()
      throw error
    }
  }

  private func read(
    _ document: JSONValue, key: String?, keyOnlyWhereKeyed: Bool, profile: AppProfileChoice, expected: [AppRecord]?
  ) throws -> Found {
    let name = URL(fileURLWithPath: location.file).deletingPathExtension().lastPathComponent
    switch document {
    case .array(let items):
      if let key, !keyOnlyWhereKeyed {
        throw DeckError(
          .missingPart, at: location.item("key '\(key)'"), "the file is an array of records, which has no keys")
      }
      let root = Self.recordList(items, profile: profile, expected: expected)
      return Found(
        root: root, key: nil,
        records: try JSONRecordList.records(in: root, name: name, location: location, what: "the file"))
    case .object(let members):
      if Self.isDeckDocument(members) {
        throw DeckError(
          .wrongFormat, at: location,
          "a deckport deck document (\"format\": \"deckport-deck\"), not app records; convert decks with `deckport convert`"
        )
      }
      let named = try RecordKeyChoice.key(
        key, candidates: Self.keysHoldingRecords(members), holding: "arrays of records",
        noneFound: "the JSON object holds no array of records; name its key with \(setting: .recordKey)", at: location)
      guard let position = NameLookup.position(of: named, in: members.map(\.key)) else {
        throw DeckError(
          .missingPart, at: location.item("key '\(named)'"),
          "no such key in the JSON object (its keys: \(NameLookup.listed(members.map(\.key))))")
      }
      // The key as the file spells it: only its value is replaced on the way back.
      let chosen = members[position].key
      let value = members[position].value
      let list =
        value.elements.map { Self.recordList($0, profile: profile, expected: expected) } ?? AppValue(untagged: value)
      let root = AppValue.object(
        AppRecord(
          fields: members.map {
            .init(key: $0.key, value: $0.key.isExactly(chosen) ? list : AppValue(untagged: $0.value))
          }))
      let records = try JSONRecordList.records(
        in: list, name: chosen, location: location.item("key '\(chosen)'"), what: "the key")
      return Found(root: root, key: chosen, records: records)
    default:
      throw DeckError(
        .corrupt, at: location,
        "the file holds \(JSONRecordList.describe(AppValue(untagged: document))), not an array of records")
    }
  }

  /// Whether `document` holds app records: an array of objects, or an object (not a deck
  /// document) with such an array under a key.
  static func holdsRecords(_ document: JSONValue) -> Bool {
    switch document {
    case .array(let items): return items.allSatisfy { $0.members != nil }
    case .object(let members): return !isDeckDocument(members) && !keysHoldingRecords(members).isEmpty
    default: return false
    }
  }

  /// The file's new content: `records` as the whole array, or under `key` of `existing` (every
  /// other key kept as it was).
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at the value JSON cannot hold (a non-finite
  ///   number or date), before anything is written.
  static func content(_ records: AppRecords, replacingIn existing: Found?, location: SourceLocation) throws -> AppValue
  {
    let array = AppValue.array(records.records.map(AppValue.object))
    var root = array
    if let existing, let key = existing.key, case .object(var object) = existing.root {
      object[key] = array
      root = .object(object)
    }
    do {
      try root.checkJSON(dates: records.jsonDates)
    } catch {
      throw DeckError(.invalidRequest, at: ValuePath.location(error.path, in: location), error.message)
    }
    return root
  }

  /// The records' array as app values: under each key the records' profile types as data, a
  /// long base64 string becomes the bytes it encodes (the `expected` record's own value when it
  /// encodes that); everything else as it is.
  private static func recordList(_ items: [JSONValue], profile choice: AppProfileChoice, expected: [AppRecord]?)
    -> AppValue
  {
    let keyed = items.map { item in
      AppRecord(fields: (item.members ?? []).map { AppRecord.Field(key: $0.key, value: .null) })
    }
    let profile = AppStorageReader.profile(choice, forRecordsKeyed: keyed)
    let dataKeys = Set((profile?.fields ?? []).filter { $0.type == .data }.map { $0.key.lowercased() })
    return .array(
      items.enumerated().map { index, item in
        guard !dataKeys.isEmpty, let members = item.members else { return AppValue(untagged: item) }
        return .object(
          AppRecord(
            fields: members.map { member in
              guard case .unreadString(let unread) = member.value, dataKeys.contains(member.key.lowercased()) else {
                return AppRecord.Field(key: member.key, value: AppValue(untagged: member.value))
              }
              if let expected, index < expected.count, case .data(let bytes)? = expected[index][member.key],
                JSONBase64Text.isEncoding(of: bytes, in: unread)
              {
                return AppRecord.Field(key: member.key, value: .data(bytes))
              }
              let value = JSONBase64Text.data(in: unread).map(AppValue.data) ?? .string(unread.text)
              return AppRecord.Field(key: member.key, value: value)
            }))
      })
  }

  /// Whether `document` is a deckport deck written by hand without its `"format"` key: an
  /// object without one whose `notes` are objects with `noteType` and `fields`, as a deck's
  /// notes are. It is a deck to its author, and read as one it is refused with that key named;
  /// read as app records (`--from app-json`), its notes would become records of those keys.
  static func isDeckWithoutFormat(_ document: JSONValue) -> Bool {
    guard let members = document.members, !members.contains(where: { $0.key == "format" }),
      let notes = members.last(where: { $0.key == "notes" })?.value.elements, let first = notes.first?.members
    else { return false }
    return first.contains { $0.key == "noteType" } && first.contains { $0.key == "fields" }
  }

  private static func isDeckDocument(_ members: [(key: String, value: JSONValue)]) -> Bool {
    members.last(where: { $0.key == "format" })?.value.string == DeckportDocumentFormat.deck
  }

  /// The keys of the object whose values are arrays of objects.
  private static func keysHoldingRecords(_ members: [(key: String, value: JSONValue)]) -> [String] {
    members.filter { member in member.value.elements?.allSatisfy { $0.members != nil } ?? false }.map(\.key)
  }

  /// The mapped file the parse leaves long strings in. It is only read, never let go of, while
  /// values refer to it.
  private final class MappedSource: JSONSource, @unchecked Sendable {
    let file: MappedFile
    var bytes: UnsafeRawBufferPointer { file.bytes }
    init(file: MappedFile) { self.file = file }
  }
}
