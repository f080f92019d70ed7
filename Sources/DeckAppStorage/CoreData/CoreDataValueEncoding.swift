import DeckCore
import DeckIO
import Foundation

/// How a record value becomes a Core Data column value: converted to the attribute's type where
/// that is exact, range-checked for Integer 16 and 32 and for Float, and tagged for external
/// storage.
enum CoreDataValueEncoding {
  /// `value` as the column's type, converting only what converts exactly; nil when it cannot.
  static func convert(_ value: AppValue, to type: CoreDataColumnType, dates: JSONDateEncoding) -> AppValue? {
    switch (type, value) {
    case (_, .null): return .null
    case (.integer, .integer), (.bool, .bool), (.double, .double), (.string, .string), (.date, .date),
      (.uuid, .uuid), (.data, .data):
      return value
    // Above 2^53 not every integer has a Double: 9007199254740993 would be stored as …992.
    case (.double, .integer(let number)): return Double(exactly: number).map(AppValue.double)
    case (.bool, .integer(let number)) where number == 0 || number == 1: return .bool(number == 1)
    // A column holds the date itself, so text the encoding would write otherwise (an offset) fits.
    case (.date, .integer), (.date, .double), (.date, .string): return dates.date(in: value).map(AppValue.date)
    case (.uuid, .string(let text)): return UUID(uuidString: text).map(AppValue.uuid)
    case (.uuid, .data(let bytes)) where bytes.count == 16: return .uuid(UUID(bytes: bytes))
    case (.data, .string(let text)): return Data(base64Encoded: text).map(AppValue.data)
    // A Decimal column has SQLite's NUMERIC affinity, which keeps a whole number as an integer.
    case (.raw, .double(let number)) where number == number.rounded() && abs(number) < 9.0e15:
      return .integer(Int64(number))
    case (.raw, .integer), (.raw, .double), (.raw, .string), (.raw, .data): return value
    default: return nil
    }
  }

  /// The record with each attribute and composite-element value converted to its column's
  /// type where that is exact (a base64 string to bytes, a number to a date, …), so that
  /// matching it with the rows a store holds compares like with like; values that do not
  /// convert are left for the writer to refuse.
  static func typed(_ record: AppRecord, as entity: CoreDataEntityLayout, dates: JSONDateEncoding) -> AppRecord {
    var typed = record
    for member in entity.members {
      switch member {
      case .attribute(let column):
        if let value = record[column.key], let converted = convert(value, to: column.type, dates: dates) {
          typed[column.key] = converted
        }
      case .composite(let composite):
        guard case .object(var object)? = record[composite.key] else { continue }
        for element in composite.elements {
          if let value = object[element.key], let converted = convert(value, to: element.type, dates: dates) {
            object[element.key] = converted
          }
        }
        typed[composite.key] = .object(object)
      case .relationship:
        continue
      }
    }
    return typed
  }

  /// Why `value` does not fit the column's attribute, or nil: an Integer 16 or 32 out of range,
  /// or a number a Float (32 bits) does not hold. A Float takes a number it holds exactly
  /// (what Core Data itself stores, `0.5`, `0.3499999940395355`) or whose 32-bit value shows the
  /// same digits (`0.1`, which the app reads as the Float `0.1`); `16777217` (it would be
  /// `16777216`) and `1e300` (beyond ±3.4e38) are refused.
  static func rangeProblem(_ value: AppValue, column: CoreDataEntityLayout.Column) -> String? {
    guard let code = column.attribute?.typeCode else { return nil }
    switch value {
    case .integer(let number):
      guard let range = CoreDataColumnType.integerRange(attributeType: code), !range.contains(number) else {
        return nil
      }
      return
        "\(number) is outside the range of the attribute \(column.key) (Integer \(code == 100 ? 16 : 32): \(range.lowerBound)…\(range.upperBound))"
    case .double(let number) where code == 600:
      let single = Float(number)
      if number.isNaN || Double(single) == number || Double(single.description) == number { return nil }
      if single.isInfinite {
        return
          "\(number) is outside the range of the attribute \(column.key) (Float, 32 bits: up to ±\(Float.greatestFiniteMagnitude))"
      }
      return
        "\(numberText(number)) has no Float: the attribute \(column.key) (Float, 32 bits) would hold \(numberText(Double(single)))"
    default:
      return nil
    }
  }

  /// Why `value` has no exact value of the column's type, when that is why ``convert(_:to:dates:)``
  /// gives nil: an integer a Double (Double or Float attribute) does not hold; nil otherwise.
  static func precisionProblem(_ value: AppValue, column: CoreDataEntityLayout.Column) -> String? {
    guard case .integer(let number) = value, column.type == .double, Double(exactly: number) == nil else { return nil }
    let kind = column.attribute?.typeCode == 600 ? "Float, 32 bits" : "Double"
    return
      "\(number) has no Double: the attribute \(column.key) (\(kind)) would hold \(numberText(Double(number))); write it as text or into an integer attribute"
  }

  /// A number for messages: a whole one in all its digits (`9223372036854775808`), else Swift's
  /// shortest text.
  private static func numberText(_ number: Double) -> String {
    number == number.rounded() && abs(number) < 1e21 ? String(format: "%.0f", number) : String(number)
  }

  /// How an external-storage value is stored.
  enum Stored {
    case cell(SQLiteValue)
    /// The blob names a file (`name`) whose content is `data`.
    case file(blob: Data, name: String, data: Data)
  }

  /// The SQLite value Core Data stores for `value` in `column`: dates as seconds since 2001,
  /// UUIDs as 16 bytes, booleans as 0/1; for an external-storage attribute, bytes tagged `0x01`
  /// inline below ``CoreDataExternalStorage/fileThreshold`` and a `0x02` file reference above.
  static func stored(_ value: AppValue, column: CoreDataEntityLayout.Column) -> Stored {
    switch value {
    case .null: return .cell(.null)
    case .integer(let number): return .cell(.integer(number))
    case .bool(let flag): return .cell(.integer(flag ? 1 : 0))
    case .double(let number): return .cell(.real(number))
    case .string(let text): return .cell(.text(text))
    case .date(let date): return .cell(.real(date.timeIntervalSinceReferenceDate))
    case .uuid(let uuid): return .cell(.blob(uuid.bytes))
    case .data(let bytes):
      guard case .data(external: true) = column.type else { return .cell(.blob(bytes)) }
      if bytes.count >= CoreDataExternalStorage.fileThreshold {
        let name = UUID().uuidString
        return .file(blob: CoreDataExternalStorage.fileBlob(name), name: name, data: bytes)
      }
      return .cell(.blob(CoreDataExternalStorage.inlineBlob(bytes)))
    case .array, .object: return .cell(.null)
    }
  }

  /// A version-5-style UUID from the SHA-1 of the entity name and the record's JSON text.
  static func derivedUUID(for record: AppRecord, entity: String) -> UUID {
    let text = (try? AppValue.object(record).jsonData(tagged: true)) ?? Data()
    return UUID(nameBasedOn: Data("deckport\u{1F}\(entity)\u{1F}".utf8) + text)
  }
}
