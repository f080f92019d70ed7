import DeckCore
import Foundation

/// The warning `[date-fraction-dropped]`: dates with a fraction of a second going into JSON as
/// ISO 8601 text without one (``JSONDateEncoding/iso8601``, what `JSONEncoder` writes and
/// `JSONDecoder` reads), wherever records are written as JSON text: a JSON file, JSON data or a
/// JSON string under a plist key. Dates nested in arrays and objects count as the records' own.
enum DroppedDateFractions {
  /// The warning for `records`, written as JSON text that `holder` names (`the file`, `the
  /// key`), at `location` (which may already name a plist key): names the first record and key
  /// (with the path inside the value, `tags[2].seen`), counts the others, and names the encoding
  /// that keeps them. Nil when the records' dates are not ``JSONDateEncoding/iso8601`` or none
  /// has a fraction.
  static func warning(_ records: AppRecords, in holder: String, at location: SourceLocation) -> Diagnostic? {
    guard records.jsonDates == .iso8601 else { return nil }
    var first: (record: Int, path: String, date: Date)?
    var count = 0
    for (index, record) in records.records.enumerated() {
      for field in record {
        visit(field.value, path: field.key) { path, date in
          if first == nil { first = (index, path, date) }
          count += 1
        }
      }
    }
    guard let first else { return nil }
    let text = JSONDateEncoding.iso8601Fractional.encode(first.date).noteText ?? ""
    let others = count == 1 ? "" : " (and \(CountedNoun.phrase(count - 1, "other date")))"
    let place = "\(records.label(ofRecord: first.record)), key '\(first.path)'"
    return Diagnostic(
      .dateFractionDropped, at: location.item([location.item, place].compactMap { $0 }.joined(separator: ": ")),
      "\(text)\(others) is written without its fraction of a second: \(holder)'s ISO 8601 dates have none, as JSONEncoder's .iso8601 writes them (JSONDecoder's .iso8601 refuses a fraction); \(setting: .jsonDates) iso8601-fractional keeps it"
    )
  }

  /// Calls `found` with the path and date of each date in `value` that has a fraction of a
  /// second, in the order they are written.
  private static func visit(_ value: AppValue, path: String, _ found: (String, Date) -> Void) {
    switch value {
    case .date(let date):
      let seconds = date.timeIntervalSinceReferenceDate
      if seconds.isFinite, seconds != seconds.rounded(.down) { found(path, date) }
    case .array(let items):
      for (position, item) in items.enumerated() { visit(item, path: path + "[\(position)]", found) }
    case .object(let record):
      for field in record { visit(field.value, path: path + "." + field.key, found) }
    default: break
    }
  }
}
