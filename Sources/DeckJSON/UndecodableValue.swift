import JSONCore

/// The value `JSONDecoder` could not take, found again by deckport's own parser: Foundation on
/// Linux reports a number that is not an integer where the deck format has one (`2.5`), an
/// integer beyond 64 bits, and a `\u` escape that is a lone surrogate only as "The given data was
/// not valid JSON.", with no path.
enum UndecodableValue {
  /// The path below the top of `json` and what is wrong there, or nil when there is nothing of
  /// the kind. A lone surrogate is given at the top (an empty path), with an excerpt of the text
  /// that holds it.
  static func find(in json: UnsafeRawBufferPointer) -> (path: [PathKey], message: String)? {
    let value: JSONValue
    do {
      value = try JSONParser.parse(buffer: json)
    } catch {
      return ([], "\(error.message) (\(error.near))")
    }
    return firstNonInteger(in: value, path: [])
  }

  /// The first number that is not a 64-bit integer, in document order. Every number of the deck
  /// format is an integer; one written with a fraction or exponent that is whole (`1.0`, `1e3`)
  /// is taken, as `JSONDecoder` takes it.
  private static func firstNonInteger(in value: JSONValue, path: [PathKey]) -> (path: [PathKey], message: String)? {
    switch value {
    case .double(let number):
      let fits = number.rounded() == number && number >= -0x1p63 && number < 0x1p63
      return fits ? nil : (path, "expected an integer, found \(number)")
    case .number(let text):
      let isInteger = text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }
      return (path, isInteger ? "the integer \(text) does not fit in 64 bits" : "expected an integer, found \(text)")
    case .array(let items):
      for (index, item) in items.enumerated() {
        if let found = firstNonInteger(in: item, path: path + [PathKey(intValue: index)]) { return found }
      }
      return nil
    case .object(let members):
      for member in members {
        if let found = firstNonInteger(in: member.value, path: path + [PathKey(stringValue: member.key)]) {
          return found
        }
      }
      return nil
    default:
      return nil
    }
  }
}
