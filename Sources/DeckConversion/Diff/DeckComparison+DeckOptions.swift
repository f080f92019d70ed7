import DeckAnki
import DeckCore
import JSONCore

extension DeckComparison {
  /// Option groups added, removed and changed (paired by id, then name), and the decks both
  /// sides have (paired as the deck part pairs them) whose group is not the partner of the one
  /// they used. Settings are compared as Anki's schema-11 `dconf` entry has them, whatever the
  /// collection's schema (``DeckOptions/schema11Entry``), key by key and into the `new`, `rev`
  /// and `lapse` sub-objects. Left out: `id`, `name`, `mod` and `crowdanki_uuid` (identities pair
  /// the groups, a rename is shown as such, modification times are not compared anywhere), and
  /// the sync state `usn` unless both formats hold Anki's other properties, where it belongs (a
  /// CrowdAnki folder keeps none). When a format holds only what its decks use (a deck
  /// package), only the groups of the decks compared are compared. Empty when a format holds no
  /// option groups.
  func deckOptionDifferences() -> DeckDifference.DeckOptionsDifferences {
    guard compared.contains(.deckOptions) else { return DeckDifference.DeckOptionsDifferences() }
    let (oldDecks, newDecks) = (comparedDecks(of: old), comparedDecks(of: new))
    let matched = pairedByName(
      Self.optionGroups(of: old, usedBy: compared.contains(.unusedItems) ? nil : oldDecks),
      Self.optionGroups(of: new, usedBy: compared.contains(.unusedItems) ? nil : newDecks), id: \.id, name: \.name)
    var result = DeckDifference.DeckOptionsDifferences(added: matched.added, removed: matched.removed)
    var ignored: Set<String> = ["id", "name", "mod", "crowdanki_uuid"]
    if !compared.contains(.ankiProperties) { ignored.insert("usn") }
    result.changed = matched.pairs.compactMap { Self.change(from: $0.old, to: $0.new, ignoring: ignored) }.sorted {
      ($0.name, $0.id) < ($1.name, $1.id)
    }
    var partner: [Int64: Int64] = [:]  // old group id → new group id
    for pair in matched.pairs { partner[pair.old.id] = pair.new.id }
    let oldNames = Dictionary(old.deckOptions.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    let newNames = Dictionary(new.deckOptions.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    for (before, after) in paired(oldDecks, newDecks, id: \.id, name: \.name).pairs {
      guard case .normal(let oldGroup) = before.kind, case .normal(let newGroup) = after.kind,
        partner[oldGroup] != newGroup
      else { continue }
      result.decksMoved.append(
        DeckDifference.DeckOptionsMove(
          deck: after.name, old: oldNames[oldGroup] ?? "id \(oldGroup)", new: newNames[newGroup] ?? "id \(newGroup)"))
    }
    result.decksMoved.sort { $0.deck < $1.deck }
    return result
  }

  /// The option groups of `collection`: all, or those `decks` use.
  private static func optionGroups(of collection: DeckCollection, usedBy decks: [Deck]?) -> [DeckOptions] {
    guard let decks else { return collection.deckOptions }
    let used = Set(
      decks.compactMap { deck -> Int64? in
        if case .normal(let group) = deck.kind { return group }
        return nil
      })
    return collection.deckOptions.filter { used.contains($0.id) }
  }

  /// How `after` differs from `before`, apart from the top-level keys in `ignored`; nil when it
  /// does not.
  private static func change(
    from before: DeckOptions, to after: DeckOptions, ignoring ignored: Set<String>
  ) -> DeckDifference.DeckOptionsChange? {
    var settings: [DeckDifference.SettingChange] = []
    switch (before.schema11Entry, after.schema11Entry) {
    case (let oldEntry?, let newEntry?):
      addSettingChanges(from: oldEntry, to: newEntry, prefix: "", ignoring: ignored, into: &settings)
    default:
      // A group whose stored settings cannot be read (which no reader lets through) is
      // compared as stored.
      if before.settings != after.settings {
        settings.append(DeckDifference.SettingChange(key: "(stored settings, unreadable)", old: nil, new: nil))
      }
    }
    let rename = before.name == after.name ? nil : DeckDifference.Change(old: before.name, new: after.name)
    guard rename != nil || !settings.isEmpty else { return nil }
    return DeckDifference.DeckOptionsChange(
      id: after.id, name: after.name, rename: rename, settings: settings.sorted { $0.key < $1.key })
  }

  /// The members of two `dconf` objects (or sub-objects, at `prefix`) that differ in meaning;
  /// members that are objects on both sides are compared member by member. `ignored` keys are
  /// passed over at the top level.
  private static func addSettingChanges(
    from before: JSONValue, to after: JSONValue, prefix: String, ignoring ignored: Set<String>,
    into changes: inout [DeckDifference.SettingChange]
  ) {
    func byKey(_ value: JSONValue) -> [String: JSONValue] {
      var members: [String: JSONValue] = [:]
      for member in value.members ?? [] where !(prefix.isEmpty && ignored.contains(member.key)) {
        members[member.key] = member.value
      }
      return members
    }
    let (oldMembers, newMembers) = (byKey(before), byKey(after))
    for key in Set(oldMembers.keys).union(newMembers.keys) {
      let (old, new) = (oldMembers[key], newMembers[key])
      if let old, let new {
        if old.members != nil && new.members != nil {
          addSettingChanges(from: old, to: new, prefix: prefix + key + ".", ignoring: ignored, into: &changes)
          continue
        }
        if old.isEquivalent(to: new) { continue }
      }
      changes.append(
        DeckDifference.SettingChange(
          key: prefix + key, old: old.map { JSONWriter.text(of: $0) }, new: new.map { JSONWriter.text(of: $0) }))
    }
  }
}
