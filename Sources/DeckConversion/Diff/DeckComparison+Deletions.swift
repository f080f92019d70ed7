import DeckCore

extension DeckComparison {
  /// Deletion records only the new side has (added), and the other way round, each named by its
  /// kind, id and update sequence number (`note 1700000000000 (usn -1)`), sorted; empty when a
  /// format holds none.
  func deletionDifferences() -> DeckDifference.ItemDifferences {
    guard compared.contains(.deletions) else { return DeckDifference.ItemDifferences() }
    func names(_ deletions: [Deletion]) -> Set<String> {
      Set(deletions.map { "\($0.kind) \($0.objectID) (usn \($0.updateSequenceNumber))" })
    }
    let before = names(old.deletions)
    let after = names(new.deletions)
    return DeckDifference.ItemDifferences(
      added: after.subtracting(before).sorted(), removed: before.subtracting(after).sorted())
  }
}
