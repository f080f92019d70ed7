import DeckCore
import Foundation
import JSONCore

/// One JSON object of a CrowdAnki deck file (as `JSONSerialization` gives it), with the JSON path
/// that leads to it, so every problem names the file and the exact place: `deck.json: at
/// children[0].notes[3].fields: expected an array of strings`.
struct JSONPathObject {
  let object: [String: Any]
  /// The same object's members as the file has them (numbers as written), for the values kept
  /// as ``AnkiProperty`` values.
  let members: [(key: String, value: JSONValue)]
  /// `children[0].notes[3]`; empty for the top level.
  let path: String
  let file: String

  /// The location of `key` in this object (or of the object itself when nil).
  func location(_ key: String? = nil) -> SourceLocation {
    SourceLocation(file: file, jsonPath: key.map(childPath) ?? (path.isEmpty ? "(top level)" : path))
  }

  func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  func problem(_ key: String?, _ message: String) -> DeckError {
    DeckError(.corrupt, at: location(key), message)
  }

  var keys: Set<String> { Set(object.keys) }

  func has(_ key: String) -> Bool { object[key] != nil && !(object[key] is NSNull) }

  func string(_ key: String) throws -> String {
    guard let value = object[key] else { throw problem(key, "is missing; expected a string") }
    guard let text = value as? String else { throw problem(key, "expected a string") }
    return text
  }

  func optionalString(_ key: String) throws -> String? {
    guard has(key) else { return nil }
    return try string(key)
  }

  func strings(_ key: String) throws -> [String] {
    guard has(key) else { return [] }
    guard let values = object[key] as? [Any] else { throw problem(key, "expected an array of strings") }
    return try values.enumerated().map { index, value in
      guard let text = value as? String else { throw problem("\(key)[\(index)]", "expected a string") }
      return text
    }
  }

  /// An integer (or `true`/`false` as 1/0, as Anki's own JSON sometimes has them).
  func optionalInt(_ key: String) throws -> Int64? {
    guard has(key) else { return nil }
    guard let number = object[key] as? NSNumber else { throw problem(key, "expected a number") }
    let double = number.doubleValue
    guard double == double.rounded(), abs(double) < 9.2e18 else { throw problem(key, "expected a whole number") }
    return number.int64Value
  }

  func objects(_ key: String) throws -> [JSONPathObject] {
    guard has(key) else { return [] }
    guard let values = object[key] as? [Any] else { throw problem(key, "expected an array of objects") }
    let written = members.last { $0.key == key }?.value.elements ?? []
    return try values.enumerated().map { index, value in
      guard let child = value as? [String: Any] else { throw problem("\(key)[\(index)]", "expected an object") }
      let childMembers = index < written.count ? written[index].members ?? [] : []
      return JSONPathObject(
        object: child, members: childMembers, path: childPath("\(key)[\(index)]"), file: file)
    }
  }
}
