import DeckCore
import JSONCore

/// Keys of a deck document that the format does not have: a typo (`Tags` for `tags`) or a key of
/// a newer format. The decoder passes over them, so what they hold would be lost without a word;
/// each is a warning instead (and, with `--strict`, a failure). A key twice in one object (a
/// note's field given twice) is refused: the decoder would keep one of its values.
///
/// The keys a value has are its decoded type's stored properties, which are the format's keys
/// (every type of ``DeckJSONDocument`` but the free-form ``StringMembersJSON`` and ``Reference``
/// uses the synthesized coding keys). Reflecting a value is slow, so what it taught is kept as a
/// tree of places in the document (`notes` → `fields`, array elements at their array's place):
/// a value whose every object has only keys already known at its place needs no reflection, and
/// a reader of many files (a json-dir's notes) reflects only the first of each shape.
final class UnknownKeys {
  /// What is known of the objects at one place of a document, and of the places below it.
  private final class Place {
    /// The keys a decoded type has here, each with its own place; nil until a value here has
    /// been reflected.
    var keys: [String: Place]?
    /// Whether any keys are allowed here (a note's fields, settings): not looked at.
    var isFree = false
  }

  /// What reflection taught, by the root value's type.
  private var roots: [ObjectIdentifier: Place] = [:]

  init() {}

  /// A warning for each member of an object in `json` whose key the value `decoded` from it has
  /// no property for; `path` is where `json` stands in the document (empty at its top).
  ///
  /// - Throws: ``DeckError`` naming the JSON path of an object that has a key twice (compared
  ///   as the decoder compares keys, as Swift strings).
  func warnings(in json: JSONValue, decoded: Any, path: String, location: SourceLocation) throws -> [Diagnostic] {
    let rootType = ObjectIdentifier(type(of: decoded))
    let root = roots[rootType] ?? Place()
    roots[rootType] = root
    if Self.allKnown(json, at: root) { return [] }
    var found: [Diagnostic] = []
    try walk(json, decoded, path: path, place: root, location: location, into: &found)
    return found
  }

  /// The same for a value's JSON text; nothing when it does not parse (the decoder judged it).
  /// Only keys are looked at: string values are checked, not decoded.
  func warnings(in text: UnsafeRawBufferPointer, decoded: Any, path: String, location: SourceLocation) throws
    -> [Diagnostic]
  {
    let source = TextSource(bytes: text)
    guard let json = try? JSONParser.parse(source: source, leavingStringsFrom: 0) else { return [] }
    return try withExtendedLifetime(source) { try warnings(in: json, decoded: decoded, path: path, location: location) }
  }

  /// Text the parse leaves string values in, for as long as the check runs.
  private final class TextSource: JSONSource, @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
  }

  /// The first key of `members` that an earlier member has too, compared as Swift strings, with
  /// that earlier member's spelling.
  private static func repeatedKey(_ members: [(key: String, value: JSONValue)]) -> (key: String, earlier: String)? {
    if members.count <= 16 {
      for (index, member) in members.enumerated().dropFirst() {
        if let earlier = members[..<index].first(where: { $0.key == member.key }) { return (member.key, earlier.key) }
      }
      return nil
    }
    var seen: [String: String] = [:]
    for member in members {
      if let earlier = seen.updateValue(member.key, forKey: member.key) { return (member.key, earlier) }
    }
    return nil
  }

  /// Refuses an object of `members` at `path` that has a key twice.
  private static func refuseRepeatedKeys(
    _ members: [(key: String, value: JSONValue)], path: String, location: SourceLocation
  ) throws {
    guard let (key, earlier) = repeatedKey(members) else { return }
    var at = location
    at.jsonPath = path.isEmpty ? nil : path
    let spellings = key.isExactly(earlier) ? "" : " (spelled with other Unicode code points the second time)"
    throw DeckError(
      .corrupt, at: at,
      "the key '\(key)' occurs twice in this object\(spellings); JSON gives each key once, and only one of the values would be read"
    )
  }

  /// Whether every object in `json` has only keys known at its place (false when a place has not
  /// been reflected yet).
  private static func allKnown(_ json: JSONValue, at place: Place) -> Bool {
    switch json {
    case .array(let items):
      return items.allSatisfy { allKnown($0, at: place) }
    case .object(let members):
      if repeatedKey(members) != nil { return false }
      if place.isFree { return true }
      guard let keys = place.keys else { return false }
      return members.allSatisfy { member in keys[member.key].map { allKnown(member.value, at: $0) } ?? false }
    default:
      return true
    }
  }

  private func walk(
    _ json: JSONValue, _ decoded: Any, path: String, place: Place, location: SourceLocation,
    into found: inout [Diagnostic]
  ) throws {
    if case .object(let members) = json { try Self.refuseRepeatedKeys(members, path: path, location: location) }
    let mirror = Mirror(reflecting: decoded)
    switch mirror.displayStyle {
    case .optional:
      if let wrapped = mirror.children.first?.value {
        try walk(json, wrapped, path: path, place: place, location: location, into: &found)
      }
    case .collection:
      guard case .array(let items) = json else { return }
      for (index, (item, value)) in zip(items, mirror.children.lazy.map(\.value)).enumerated() {
        try walk(item, value, path: path + "[\(index)]", place: place, location: location, into: &found)
      }
    case .struct where !(decoded is StringMembersJSON):
      guard case .object(let members) = json else { return }
      let properties = mirror.children.compactMap { child in child.label.map { ($0, child.value) } }
      let names = properties.map(\.0)
      var keys = place.keys ?? [:]
      for name in names where keys[name] == nil { keys[name] = Place() }
      place.keys = keys
      let byName = Dictionary(properties, uniquingKeysWith: { first, _ in first })
      for member in members {
        let memberPath = path.isEmpty ? member.key : path + "." + member.key
        if let value = byName[member.key], let below = keys[member.key] {
          try walk(member.value, value, path: memberPath, place: below, location: location, into: &found)
          continue
        }
        var at = location
        at.jsonPath = memberPath
        let alike = names.first { $0.lowercased() == member.key.lowercased() }
        found.append(
          Diagnostic(
            .unknownKey, at: at,
            "'\(member.key)' is not a key of deckport's deck format here, so what it holds is not read"
              + (alike.map { " (did you mean '\($0)'?)" } ?? " (the keys here: \(names.joined(separator: ", ")))")))
      }
    default:
      // A free-form object, a reference, a number or text: its keys are not the format's.
      if case .object = json { place.isFree = true }
    }
  }
}
