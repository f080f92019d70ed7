import DeckCore
import Foundation

/// Turns a `DecodingError` into a ``DeckError`` naming the JSON path of the problem and what was
/// expected there: `notes[3].fields: expected an object of strings`.
enum DecodingErrorMessage {
  /// The error for `error`, whose coding path starts below `prefix` (an element decoded apart
  /// from its document: `notes`, `3`). With the `json` that was decoded, a value Foundation
  /// reports without a path is found and named (``UndecodableValue``).
  static func deckError(
    _ error: DecodingError, location: SourceLocation, prefix: [any CodingKey] = [], json: Data? = nil
  ) -> DeckError {
    let (codingPath, message): ([any CodingKey], String)
    switch error {
    case .typeMismatch(let type, let context):
      codingPath = context.codingPath
      message = "expected \(describe(type, context))"
    case .valueNotFound(let type, let context):
      codingPath = context.codingPath
      message = "expected \(describe(type, context)), found null"
    case .keyNotFound(let key, let context):
      codingPath = context.codingPath + [key]
      message = "the key \"\(key.stringValue)\" is missing"
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty, let found = json?.withUnsafeBytes(UndecodableValue.find(in:)) {
        (codingPath, message) = (found.path, found.message)
      } else {
        codingPath = context.codingPath
        message = context.debugDescription
      }
    @unknown default:
      codingPath = []
      message = "\(error)"
    }
    var place = location
    place.jsonPath = path(prefix + codingPath)
    return DeckError(.corrupt, at: place, message)
  }

  /// `notes[3].fields` from a coding path.
  static func path(_ codingPath: [any CodingKey]) -> String {
    var text = ""
    for key in codingPath {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text.isEmpty ? "(top level)" : text
  }

  private static func describe(_ type: Any.Type, _ context: DecodingError.Context) -> String {
    if context.debugDescription.hasPrefix("expected ") {
      return String(context.debugDescription.dropFirst("expected ".count))
    }
    switch type {
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    case is Int.Type, is Int64.Type, is Int32.Type, is UInt32.Type: return "an integer"
    case is Double.Type, is Float.Type: return "a number"
    case is [String: String].Type, is StringMembersJSON.Type: return "an object of strings"
    case is [Any].Type: return "an array"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Array<") { return "an array" }
      if name.hasPrefix("Dictionary<") { return "an object" }
      return "an object"
    }
  }
}

/// A coding key of a path built by hand: a member name or an array index.
struct PathKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}
