import DeckCore
import Foundation

/// What records become in storage that cannot hold every type: the records a writer expects to
/// read back, and which keys changed type on the way (reported, never silent).
enum AppRecordProjection {
  /// The records as a JSON file or JSON plist data gives them back: dates as numbers (or ISO
  /// strings) in the records' date encoding, UUIDs as strings, data as base64, then typed again
  /// by the records' profile.
  static func json(_ records: AppRecords) -> AppRecords {
    // Data under a key the profile types as data comes back as the same data: its base64 text
    // (a picture's size and a third more) is not made only to be decoded again.
    let dataKeys = Set((records.profile?.fields ?? []).filter { $0.type == .data }.map { $0.key.lowercased() })
    // A picture many records hold (one file of the deck) is encoded once, its text shared.
    var base64: [AppValue: String] = [:]
    return retyped(
      records,
      records.records.map { record in
        AppRecord(
          fields: record.fields.map { field in
            if case .data = field.value, dataKeys.contains(field.key.lowercased()) { return field }
            return .init(key: field.key, value: json(field.value, dates: records.jsonDates, base64: &base64))
          })
      })
  }

  /// The records as a plist of dictionaries gives them back: UUIDs as strings, then typed again
  /// by the records' profile. In XML (`xml`), a date of -0.0 seconds comes back as 0.0: the
  /// same instant, written as the same text, which has no sign for zero.
  static func plist(_ records: AppRecords, xml: Bool) -> AppRecords {
    retyped(
      records,
      records.records.map { record in
        AppRecord(fields: record.fields.map { .init(key: $0.key, value: plist($0.value, xml: xml)) })
      })
  }

  /// One warning per key whose values come back with another type than they had.
  static func changes(from original: AppRecords, to projected: AppRecords, storage: String, at location: SourceLocation)
    -> [Diagnostic]
  {
    var counts: [String: (count: Int, from: AppValueType, to: AppValueType)] = [:]
    var order: [String] = []
    for (before, after) in zip(original.records, projected.records) {
      for field in before.fields {
        guard let value = after[field.key], value.type != field.value.type, !field.value.isNull else { continue }
        if counts[field.key] == nil { order.append(field.key) }
        counts[field.key, default: (0, field.value.type, value.type)].count += 1
      }
    }
    return order.compactMap { key in
      guard let change = counts[key] else { return nil }
      return Diagnostic(
        .typeChanged, at: location.item("key '\(key)'"),
        "\(change.count) \(change.from.rawValue) \(CountedNoun.noun("value", for: change.count)) come\(change.count == 1 ? "s" : "") back from \(storage) as \(change.to.rawValue) (no profile types this key); the content is kept"
      )
    }
  }

  private static func retyped(_ records: AppRecords, _ projected: [AppRecord]) -> AppRecords {
    var result = records.replacingRecords(projected, primaryKeys: records.primaryKeys)
    if let profile = records.profile {
      result = profile.apply(to: result, dates: records.jsonDates)
    }
    return result
  }

  /// `value` as a JSON file gives it back; data's base64 text is taken from `base64` when the
  /// same bytes were encoded before (and put there when not).
  private static func json(_ value: AppValue, dates: JSONDateEncoding, base64: inout [AppValue: String]) -> AppValue {
    switch value {
    case .date(let date): return dates.encode(date)
    case .uuid(let uuid): return .string(uuid.uuidString)
    case .data(let data):
      if let text = base64[value] { return .string(text) }
      let text = data.base64EncodedString()
      base64[value] = text
      return .string(text)
    case .array(let items): return .array(items.map { json($0, dates: dates, base64: &base64) })
    case .object(let record):
      return .object(
        AppRecord(
          fields: record.fields.map { .init(key: $0.key, value: json($0.value, dates: dates, base64: &base64)) })
      )
    default: return value
    }
  }

  private static func plist(_ value: AppValue, xml: Bool) -> AppValue {
    switch value {
    case .uuid(let uuid): return .string(uuid.uuidString)
    case .date(let date) where xml && date.timeIntervalSinceReferenceDate == 0:
      return .date(Date(timeIntervalSinceReferenceDate: 0))
    case .array(let items): return .array(items.map { plist($0, xml: xml) })
    case .object(let record):
      return .object(AppRecord(fields: record.fields.map { .init(key: $0.key, value: plist($0.value, xml: xml)) }))
    default: return value
    }
  }
}
