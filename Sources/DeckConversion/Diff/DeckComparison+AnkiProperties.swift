import DeckCore
import JSONCore

extension DeckComparison {
  /// Anki's other properties of the decks and note types both sides have (paired as the deck
  /// and note type parts pair them), and of the fields and templates of paired note types
  /// (paired by name, then position); empty when a format holds none.
  func ankiPropertyDifferences() -> DeckDifference.PropertyDifferences {
    guard compared.contains(.ankiProperties) else { return DeckDifference.PropertyDifferences() }
    var result = DeckDifference.PropertyDifferences()
    for (before, after) in paired(comparedDecks(of: old), comparedDecks(of: new), id: \.id, name: \.name).pairs {
      Self.addPropertyDifferences(
        from: before.ankiProperties, to: after.ankiProperties, owner: "deck '\(after.name)'", into: &result)
    }
    let noteTypes = paired(comparedNoteTypes(of: old), comparedNoteTypes(of: new), id: \.id, name: \.name)
    for (before, after) in noteTypes.pairs {
      let owner = "note type '\(after.name)'"
      Self.addPropertyDifferences(from: before.ankiProperties, to: after.ankiProperties, owner: owner, into: &result)
      for (oldIndex, newIndex) in Self.listDifferences(before.fieldNames, after.fieldNames).pairs {
        Self.addPropertyDifferences(
          from: before.fields[oldIndex].ankiProperties, to: after.fields[newIndex].ankiProperties,
          owner: "\(owner), field '\(after.fields[newIndex].name)'", into: &result)
      }
      let templateNames = (before.templates.map(\.name), after.templates.map(\.name))
      for (oldIndex, newIndex) in Self.listDifferences(templateNames.0, templateNames.1).pairs {
        Self.addPropertyDifferences(
          from: before.templates[oldIndex].ankiProperties, to: after.templates[newIndex].ankiProperties,
          owner: "\(owner), template '\(after.templates[newIndex].name)'", into: &result)
      }
    }
    func order(_ owner: String?, _ key: String) -> (String, String) { (owner ?? "", key) }
    result.added.sort { order($0.owner, $0.key) < order($1.owner, $1.key) }
    result.removed.sort { order($0.owner, $0.key) < order($1.owner, $1.key) }
    result.changed.sort { order($0.owner, $0.key) < order($1.owner, $1.key) }
    return result
  }

  /// Adds to `result` the keys only `after` has, those only `before` has, and those whose values
  /// differ in meaning (``JSONValue/isEquivalent(to:)``; texts that are not JSON are compared as
  /// text). Of a key given twice, the last value counts, as Anki reads it.
  static func addPropertyDifferences(
    from before: [AnkiProperty], to after: [AnkiProperty], owner: String?,
    into result: inout DeckDifference.PropertyDifferences
  ) {
    func byKey(_ properties: [AnkiProperty]) -> [String: String] {
      Dictionary(properties.map { ($0.key, $0.jsonText) }, uniquingKeysWith: { _, last in last })
    }
    let oldValues = byKey(before)
    let newValues = byKey(after)
    for key in newValues.keys.sorted() {
      guard let value = newValues[key] else { continue }
      guard let earlier = oldValues[key] else {
        result.added.append(DeckDifference.PropertyEntry(owner: owner, key: key, value: value))
        continue
      }
      if !sameMeaning(earlier, value) {
        result.changed.append(DeckDifference.PropertyChange(owner: owner, key: key, old: earlier, new: value))
      }
    }
    for key in oldValues.keys.sorted() where newValues[key] == nil {
      if let value = oldValues[key] {
        result.removed.append(DeckDifference.PropertyEntry(owner: owner, key: key, value: value))
      }
    }
  }

  /// Whether two JSON texts mean the same (``JSONValue/isEquivalent(to:)``); texts that are not
  /// JSON are the same only when equal.
  static func sameMeaning(_ a: String, _ b: String) -> Bool {
    guard a != b else { return true }
    guard let left = try? JSONParser.parse(Array(a.utf8)), let right = try? JSONParser.parse(Array(b.utf8)) else {
      return false
    }
    return left.isEquivalent(to: right)
  }
}
