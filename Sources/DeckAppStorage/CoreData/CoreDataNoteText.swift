import DeckCore
import Foundation

/// How a deck's note text goes back into a Core Data entity. A deck made from records without a
/// profile holds every value as text (``AppValue/noteText``); the entity's model says what each
/// text was: an integer, a double, a boolean, a date in ISO 8601, a composite's object or a
/// relationship's references as JSON. Empty text is an absent value, except for a required
/// string attribute, which keeps it.
enum CoreDataNoteText {
  /// `record` (note text, with keys spelled as the entity's) with each text the entity types
  /// turned into a value of that type. Text that does not read as its type stays text, for the
  /// writer to refuse naming the record and key; keys the entity lacks stay as they are.
  static func values(of record: AppRecord, as entity: CoreDataEntityLayout) -> AppRecord {
    let members = Dictionary(entity.members.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    var typed = AppRecord()
    for field in record {
      guard case .string(let text) = field.value, let member = members[field.key] else {
        typed.fields.append(field)
        continue
      }
      if text.isEmpty {
        if case .attribute(let column) = member, column.type == .string, column.attribute?.isOptional == false {
          typed.fields.append(field)
        }
        continue
      }
      let value: AppValue?
      switch member {
      case .attribute(let column): value = self.value(text, as: column.type)
      case .composite: value = json(text).flatMap { if case .object = $0 { $0 } else { nil } }
      case .relationship(let relationship):
        value = json(text).flatMap { parsed in
          switch parsed {
          case .object where !relationship.model.isToMany, .array where relationship.model.isToMany: parsed
          default: nil
          }
        }
      }
      typed.fields.append(.init(key: field.key, value: value ?? field.value))
    }
    return typed
  }

  /// `text` as a value of `type`, or nil when it does not read as one.
  private static func value(_ text: String, as type: CoreDataColumnType) -> AppValue? {
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
    case .raw:
      // Decimal and object-id attributes: the number the text shows, else the text.
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

  private static func json(_ text: String) -> AppValue? {
    try? AppValue(json: Data(text.utf8))
  }
}
