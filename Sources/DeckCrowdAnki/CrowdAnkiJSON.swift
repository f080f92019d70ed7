import DeckCore
import DeckIO
import Foundation
import JSONCore

/// CrowdAnki's `deck.json` text: what Python's `json.dumps(deck, sort_keys=True, indent=4,
/// ensure_ascii=False)` writes, the call CrowdAnki's exporter makes (`export/anki_exporter.py`).
///
/// Keys are sorted by code point; members and elements sit one a line, four spaces a level, as
/// `"key": value` with `,` ending the line; non-ASCII text is written as UTF-8, and only quotes,
/// backslashes and control characters are escaped (`\n`, `\u001f`); there is no final newline.
/// Numbers are written as Python prints them: integers without a fraction, floating-point
/// numbers with one (`1.0`, `2.5`, `1e-05`), so a float read from a deck file stays a float.
enum CrowdAnkiJSON {
  /// A value JSON cannot hold (not a string, number, Boolean, null, array or object).
  struct Unrepresentable: Error {
    let path: String
  }

  /// The value of `value` (as `JSONSerialization` gives it, or Swift's own values), keys sorted
  /// by code point; floating-point numbers stay floating-point (`1.0`), as Python's `repr` writes
  /// them (Swift's `description` follows the same rules).
  ///
  /// - Throws: ``Unrepresentable`` with the path of the first value JSON cannot hold.
  static func value(_ value: Any, path: String = "") throws(Unrepresentable) -> JSONValue {
    if let json = JSONValue(foundation: value) { return json }
    // Find the value that is not JSON, to name it.
    switch value {
    case let items as [Any]:
      for (index, item) in items.enumerated() { _ = try Self.value(item, path: "\(path)[\(index)]") }
    case let object as [String: Any]:
      for key in object.keys.sorted(by: JSONValue.codePointOrder) {
        _ = try Self.value(object[key] ?? NSNull(), path: path.isEmpty ? key : "\(path).\(key)")
      }
    default: break
    }
    throw Unrepresentable(path: path)
  }

  /// `value` with each whole number that `stored` holds as a float at the same place (the
  /// same key path, the same numeric value) taken from `stored`, so `"mult": 0.0` stays `0.0`
  /// after passing through a conversion that wrote it as `0`.
  static func keepingFloats(_ value: Any, from stored: Any) -> Any {
    switch (value, stored) {
    case (let object as [String: Any], let original as [String: Any]):
      return object.reduce(into: [String: Any]()) { result, entry in
        result[entry.key] = original[entry.key].map { keepingFloats(entry.value, from: $0) } ?? entry.value
      }
    case (let items as [Any], let original as [Any]) where items.count == original.count:
      return zip(items, original).map { keepingFloats($0, from: $1) }
    case (let number as NSNumber, let original as NSNumber):
      let kind = String(cString: original.objCType)
      guard kind == "d" || kind == "f", String(cString: number.objCType) != "c",
        number.doubleValue == original.doubleValue
      else { return value }
      return original
    default:
      return value
    }
  }

  /// The members of an object being built: setting a key again replaces its value, and
  /// ``sorted`` lists them in code point order of their keys, as `sort_keys=True` does.
  struct Members {
    private var values: [String: JSONValue] = [:]

    subscript(key: String) -> JSONValue? {
      get { values[key] }
      set { values[key] = newValue }
    }

    /// The members, keys in code point order.
    var sorted: [(key: String, value: JSONValue)] {
      values.sorted { JSONValue.codePointOrder($0.key, $1.key) }.map { (key: $0.key, value: $0.value) }
    }
  }

  /// The layout of `deck.json`: four spaces a level.
  static let layout = JSONWriter.Layout.indented(spaces: 4)

  /// Compact JSON text of `object`, keys sorted and floats kept as floats (`0.0` stays `0.0`).
  static func compactText(_ object: [String: Any]) throws -> String {
    JSONWriter.text(of: try value(object))
  }
}
