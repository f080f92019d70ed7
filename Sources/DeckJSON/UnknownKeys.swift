import DeckCore
import JSONCore

/// Keys of a deck document that the format does not have: a typo (`Tags` for `tags`) or a key of
/// a newer format. The decoder passes over them, so what they hold would be lost without a word;
/// each is a warning instead (and, with `--strict`, a failure).
///
/// The keys a value has are its decoded type's stored properties, which are the format's keys
/// (every type of ``DeckJSONDocument`` but the free-form ``StringMembersJSON`` and ``Reference``
/// uses the synthesized coding keys).
enum UnknownKeys {
  /// A warning for each member of an object in `json` whose key the value `decoded` from it has
  /// no property for; `path` is where `json` stands in the document (empty at its top).
  static func warnings(in json: JSONValue, decoded: Any, path: String, location: SourceLocation) -> [Diagnostic] {
    var found: [Diagnostic] = []
    walk(json, decoded, path: path, location: location, into: &found)
    return found
  }

  /// The same for a value's JSON text; nothing when it does not parse (the decoder judged it).
  static func warnings(
    in text: UnsafeRawBufferPointer, decoded: Any, path: String, location: SourceLocation
  ) -> [Diagnostic] {
    guard let json = try? JSONParser.parse(buffer: text) else { return [] }
    return warnings(in: json, decoded: decoded, path: path, location: location)
  }

  private static func walk(
    _ json: JSONValue, _ decoded: Any, path: String, location: SourceLocation, into found: inout [Diagnostic]
  ) {
    let mirror = Mirror(reflecting: decoded)
    switch mirror.displayStyle {
    case .optional:
      if let wrapped = mirror.children.first?.value {
        walk(json, wrapped, path: path, location: location, into: &found)
      }
    case .collection:
      guard case .array(let items) = json else { return }
      for (index, (item, value)) in zip(items, mirror.children.lazy.map(\.value)).enumerated() {
        walk(item, value, path: path + "[\(index)]", location: location, into: &found)
      }
    case .struct where !(decoded is StringMembersJSON):
      guard case .object(let members) = json else { return }
      let properties = mirror.children.compactMap { child in child.label.map { ($0, child.value) } }
      let byName = Dictionary(properties, uniquingKeysWith: { first, _ in first })
      for member in members {
        let memberPath = path.isEmpty ? member.key : path + "." + member.key
        if let value = byName[member.key] {
          walk(member.value, value, path: memberPath, location: location, into: &found)
          continue
        }
        var place = location
        place.jsonPath = memberPath
        let names = properties.map(\.0)
        let alike = names.first { $0.lowercased() == member.key.lowercased() }
        found.append(
          Diagnostic(
            "unknown-key", at: place,
            "'\(member.key)' is not a key of deckport's deck format here, so what it holds is not read"
              + (alike.map { " (did you mean '\($0)'?)" } ?? " (the keys here: \(names.joined(separator: ", ")))")))
      }
    default:
      return
    }
  }
}
