import DeckCore

/// Checks, after a write, that rows read back from the store link exactly the targets the
/// writer set: the same keys, in the same order where the relationship is ordered.
enum CoreDataLinkCheck {
  /// The target keys a relationship value read from the store holds: one reference, an array
  /// of them, or none.
  static func targets(_ value: AppValue?) -> [Int64] {
    switch value {
    case .array(let items)?: items.compactMap { CoreDataReference($0)?.primaryKey }
    case let single?: CoreDataReference(single).map { [$0.primaryKey] } ?? []
    case nil: []
    }
  }

  /// Throws a verification failure naming the row and relationship whose targets differ.
  ///
  /// - Parameters:
  ///   - expected: row key → relationship → the keys the writer linked.
  ///   - readBack: the rows as read from the written store, by key.
  static func require(
    _ expected: [Int64: [String: [Int64]]], readBack: [Int64: AppRecord], entity: CoreDataEntityLayout,
    location: SourceLocation
  ) throws {
    let ordered = Set(entity.relationships.filter(\.model.isOrdered).map(\.key))
    for (key, links) in expected.sorted(by: { $0.key < $1.key }) {
      let record = readBack[key] ?? AppRecord()
      for (relationship, wanted) in links.sorted(by: { $0.key < $1.key }) {
        let found = targets(record[relationship])
        let same = ordered.contains(relationship) ? found == wanted : Set(found) == Set(wanted)
        guard same else {
          throw DeckError(
            .writeFailed, at: location.table(entity.table, row: key),
            "verification failed: the relationship \(relationship) should link Z_PK \(describe(wanted)) but links \(describe(found))"
          )
        }
      }
    }
  }

  private static func describe(_ keys: [Int64]) -> String {
    keys.isEmpty ? "nothing" : keys.map(String.init).joined(separator: ", ")
  }
}
