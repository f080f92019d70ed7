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
  }

  /// `record` (note text) with each text under a key of `targets` turned into a value of its
  /// type. Text that does not read as its type stays text, for the writer to refuse or keep;
  /// other keys and values (a picture's data) stay as they are.
  static func values(of record: AppRecord, targets: [String: Target]) -> AppRecord {
    var typed = AppRecord()
    for field in record {
      guard case .string(let text) = field.value, let target = targets[field.key] else {
        typed.fields.append(field)
        continue
      }
      if text.isEmpty {
        if target.keepsEmptyText { typed.fields.append(field) }
        continue
      }
      typed.fields.append(.init(key: field.key, value: value(text, as: target.type) ?? field.value))
    }
    return typed
  }

  /// The targets the records a destination holds give: each key as the type of its values
  /// there. Empty text stays empty under a key of text, and is absent under any other.
  static func targets(for shape: AppRecordShape) -> [String: Target] {
    Dictionary(
      shape.fields.map { ($0.key, Target(type: $0.type, keepsEmptyText: $0.type == .string)) },
      uniquingKeysWith: { first, _ in first })
  }

  /// `text` as a value of `type`, or nil when it does not read as one.
  static func value(_ text: String, as type: AppValueType) -> AppValue? {
    switch type {
    case .string, .uuid, .data: return .string(text)
    case .integer: return Int64(text).map(AppValue.integer)
    case .double: return decimal(text).map(AppValue.double)
    case .bool:
      switch text {
      case "true", "1": return .bool(true)
      case "false", "0": return .bool(false)
      default: return nil
      }
    case .date: return AppValue.date(fromNoteText: text).map(AppValue.date)
    case .array, .object:
      guard let parsed = try? AppValue(json: Data(text.utf8)), parsed.type == type else { return nil }
      return parsed
    case .any:
      if let number = Int64(text) { return .integer(number) }
      return decimal(text).map(AppValue.double) ?? .string(text)
    }
  }

  /// A number written in decimal (`3.5`, `-2`, `1e-7`), not Swift's other spellings (`0x1p3`,
  /// `nan`, `inf`).
  private static func decimal(_ text: String) -> Double? {
    guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "+-.eE".utf8.contains($0) }),
      let number = Double(text), number.isFinite
    else { return nil }
    return number
  }
}
