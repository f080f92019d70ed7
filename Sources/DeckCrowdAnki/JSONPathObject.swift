import DeckCore
import Foundation
import JSONCore

/// One JSON object of a CrowdAnki deck file, its members as the file has them (numbers as
/// written), with the JSON path that leads to it, so every problem names the file and the exact
/// place: `deck.json: at children[0].notes[3].fields: expected an array of strings`.
///
/// The parsed file is the only tree the reader holds: the typed reads below take each value
/// from it, and ``foundationObject`` makes a `JSONSerialization`-style copy only of an object
/// whose reader works on one (a note model, an option group), which are small.
struct JSONPathObject {
  /// The members as the file has them (a key is never repeated: the reader refuses that).
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

  /// The object as `JSONSerialization` gives one, for readers that work on that form.
  var foundationObject: [String: Any] {
    var object: [String: Any] = [:]
    for member in members { object[member.key] = member.value.foundationObject }
    return object
  }

  /// The keys whose value is not `null`.
  var keysWithValues: Set<String> { Set(members.lazy.filter { !$0.value.isNull }.map(\.key)) }

  /// The value of `key`, `null` included; nil when the object has no such member.
  func value(_ key: String) -> JSONValue? { members.last { $0.key == key }?.value }

  func has(_ key: String) -> Bool { value(key).map { !$0.isNull } ?? false }

  func string(_ key: String) throws -> String {
    guard let value = value(key) else { throw problem(key, "is missing; expected a string") }
    guard let text = value.string else { throw problem(key, "expected a string") }
    return text
  }

  func optionalString(_ key: String) throws -> String? {
    guard has(key) else { return nil }
    return try string(key)
  }

  func strings(_ key: String) throws -> [String] {
    guard has(key) else { return [] }
    guard let values = value(key)?.elements else { throw problem(key, "expected an array of strings") }
    return try values.enumerated().map { index, value in
      guard let text = value.string else { throw problem("\(key)[\(index)]", "expected a string") }
      return text
    }
  }

  /// An integer (or `true`/`false` as 1/0, as Anki's own JSON sometimes has them).
  func optionalInt(_ key: String) throws -> Int64? {
    guard let value = value(key), !value.isNull else { return nil }
    switch value {
    case .bool(let flag): return flag ? 1 : 0
    case .integer, .double, .number:
      guard let double = value.double, double == double.rounded(), abs(double) < 9.2e18, let whole = value.int64
      else { throw problem(key, "expected a whole number") }
      return whole
    default: throw problem(key, "expected a number")
    }
  }

  func objects(_ key: String) throws -> [JSONPathObject] {
    guard has(key) else { return [] }
    guard let values = value(key)?.elements else { throw problem(key, "expected an array of objects") }
    return try values.enumerated().map { index, value in
      guard let members = value.members else { throw problem("\(key)[\(index)]", "expected an object") }
      return JSONPathObject(members: members, path: childPath("\(key)[\(index)]"), file: file)
    }
  }
}
