import DeckCore

extension DeckComparison {
  /// The collection's settings added, removed and changed, by key; empty when a format holds
  /// none.
  func settingDifferences() -> DeckDifference.PropertyDifferences {
    guard compared.contains(.settings) else { return DeckDifference.PropertyDifferences() }
    var result = DeckDifference.PropertyDifferences()
    Self.addPropertyDifferences(from: old.settings, to: new.settings, owner: nil, into: &result)
    return result
  }

  /// Tags added to and removed from the collection's list of tags, and tags both lists have
  /// whose update sequence number, or collapse state where both sides say, changed; sorted by
  /// name. Empty when a format holds no list.
  func tagRegistryDifferences() -> DeckDifference.TagRegistryDifferences {
    guard compared.contains(.tagRegistry) else { return DeckDifference.TagRegistryDifferences() }
    func byName(_ tags: [RegisteredTag]) -> [String: RegisteredTag] {
      Dictionary(tags.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }
    func entry(_ tag: RegisteredTag) -> DeckDifference.RegisteredTagEntry {
      DeckDifference.RegisteredTagEntry(name: tag.name, usn: tag.updateSequenceNumber, collapsed: tag.isCollapsed)
    }
    let before = byName(old.tagRegistry)
    let after = byName(new.tagRegistry)
    var result = DeckDifference.TagRegistryDifferences()
    for name in after.keys.sorted() {
      guard let tag = after[name] else { continue }
      guard let earlier = before[name] else {
        result.added.append(entry(tag))
        continue
      }
      let usn =
        earlier.updateSequenceNumber == tag.updateSequenceNumber
        ? nil : DeckDifference.Change(old: earlier.updateSequenceNumber, new: tag.updateSequenceNumber)
      var collapsed: DeckDifference.Change<Bool>?
      if let was = earlier.isCollapsed, let now = tag.isCollapsed, was != now {
        collapsed = DeckDifference.Change(old: was, new: now)
      }
      if usn != nil || collapsed != nil {
        result.changed.append(DeckDifference.RegisteredTagChange(name: name, usn: usn, collapsed: collapsed))
      }
    }
    result.removed = before.keys.sorted().filter { after[$0] == nil }.compactMap { before[$0].map(entry) }
    return result
  }
}
