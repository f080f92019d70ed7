import DeckCore
import Foundation

/// How a deck's note text becomes typed values again. A deck made from records without a profile
/// holds every value as text (``AppValue/noteText``); where the records go says what each key's
/// text was: a Core Data entity's model (``CoreDataNoteText``), or the type of the values the
/// destination already holds under the key (a JSON file, a plist, deckport's SQLite file).
enum NoteTextTyping {
  /// What one key's text becomes.
  struct Target {
    /// The type the text is read as: ``AppValueType/any`` reads a number as one and keeps other
    /// text; ``AppValueType/array`` and ``AppValueType/object`` read JSON.
    var type: AppValueType
    /// Whether empty text stays an empty string; otherwise it is an absent value.
    var keepsEmptyText: Bool
    /// Whether an object's null members are left out, and an empty object or array is an absent
    /// value (a Core Data composite whose elements are all NULL, a to-many with no link).
    var emptyIsAbsent = false
  }

  /// `record` (note text) with each text under a key of `targets` turned into a value of its
  /// type, and the keys whose text does not read as their type (that text stays, for the
  /// writer to refuse). With `dataAsText` (a destination of JSON text: a JSON file, JSON under a
  /// plist key), a picture's data under a key of text becomes its base64 text, the text such a
  /// file holds it as, so that the record matches the one an earlier write stored; elsewhere
  /// (SQLite, Core Data, a plist's own data values) it stays data, for the writer to store as
  /// bytes or refuse. Other keys and values stay as they are.
  static func values(of record: AppRecord, targets: [ExactKey: Target], dataAsText: Bool = false) -> (
    record: AppRecord, unreadable: [String]
  ) {
    var typed = AppRecord()
    var unreadable: [String] = []
    for field in record {
      if dataAsText, case .data(let bytes) = field.value, targets[ExactKey(field.key)]?.type == .string {
        typed.append(.init(key: field.key, value: .string(bytes.base64EncodedString())))
        continue
      }
      guard case .string(let text) = field.value, let target = targets[ExactKey(field.key)] else {
        typed.append(field)
        continue
      }
      if text.isEmpty {
        if target.keepsEmptyText { typed.append(field) }
        continue
      }
      guard var value = value(text, as: target.type) else {
        unreadable.append(field.key)
        typed.append(field)
        continue
      }
      if target.emptyIsAbsent {
        if case .object(let object) = value { value = .object(AppRecord(fields: object.filter { !$0.value.isNull })) }
        if value == .object(AppRecord()) || value == .array([]) { continue }
      }
      typed.append(.init(key: field.key, value: value))
    }
    return (typed, unreadable)
  }

  /// For each field name that ``RecordsToDeck/fieldNames(for:)`` gives one of `keys` other than
  /// the key itself (`key:colon` became the field `keycolon`, a second `Name` the field
  /// `Name 2`), that key: what ``restoringKeys(of:by:)`` takes, made once for all records.
  static func restoredKeys(for keys: [String]) -> [ExactKey: String] {
    let exact = Set(keys.map(ExactKey.init))
    var keyByField: [ExactKey: String] = [:]
    for (name, key) in zip(RecordsToDeck.fieldNames(for: keys), keys)
    where !name.isExactly(key) && !exact.contains(ExactKey(name)) {
      keyByField[ExactKey(name)] = key
    }
    return keyByField
  }

  /// `record` (note text) with each field that `keyByField` (``restoredKeys(for:)``) names under
  /// its key again; fields that are keys themselves, or name none, stay.
  static func restoringKeys(of record: AppRecord, by keyByField: [ExactKey: String]) -> AppRecord {
    guard !keyByField.isEmpty else { return record }
    return AppRecord(
      fields: record.map { field in
        guard let key = keyByField[ExactKey(field.key)], record.index(of: key) == nil else { return field }
        return AppRecord.Field(key: key, value: field.value)
      })
  }

  /// The targets the records a destination holds give: each key as the type of its values
  /// there. Empty text stays empty under a key of text, and is absent under any other.
  static func targets(for shape: AppRecordShape) -> [ExactKey: Target] {
    Dictionary(
      shape.fields.map { (ExactKey($0.key), Target(type: $0.type, keepsEmptyText: $0.type == .string)) },
      uniquingKeysWith: { first, _ in first })
  }

  /// `text` as a value of `type`, or nil when it does not read as one.
  static func value(_ text: String, as type: AppValueType) -> AppValue? {
    switch type {
    case .string, .uuid, .data: return .string(text)
    case .integer: return Int64(text).map(AppValue.integer)
    case .double: return (decimal(text) ?? AppValue.double(fromNoteText: text)).map(AppValue.double)
    case .bool:
      switch text {
      case "true", "1": return .bool(true)
      case "false", "0": return .bool(false)
      default: return nil
      }
    case .date: return AppValue.date(fromNoteText: text).map(AppValue.date)
    case .array, .object:
      guard let parsed = try? AppValue(noteJSON: text), parsed.type == type else { return nil }
      return parsed
    case .any:
      if let number = Int64(text) { return .integer(number) }
      return decimal(text).map(AppValue.double) ?? .string(text)
    }
  }

  /// A number written in decimal (`3.5`, `-2`, `1e-7`), not Swift's other spellings (`0x1p3`,
  /// `nan`, `inf`); nil for a whole number a Double does not hold exactly (`9007199254740993`
  /// would be `…992`).
  private static func decimal(_ text: String) -> Double? {
    guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "+-.eE".utf8.contains($0) }),
      let number = Double(text), number.isFinite
    else { return nil }
    if let whole = Int64(text), Double(exactly: whole) == nil { return nil }
    return number
  }
}
