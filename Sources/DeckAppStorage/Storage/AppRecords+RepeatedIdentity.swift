import DeckCore
import Foundation

extension AppRecords {
  /// A warning when records share the values of their profile's identity keys (two Flashzilla
  /// cards with one `id`): the app tells its records apart by those values, and a migration
  /// matches records by them, so the user should hear of it. Each record is still read and
  /// written as a record of its own. Nil when none repeats, or the records have no profile.
  func repeatedIdentityWarning(at location: SourceLocation) -> Diagnostic? {
    guard let keys = profile?.identityKeys, !keys.isEmpty else { return nil }
    var firstHolder: [[AppValue]: Int] = [:]
    var firstRepeat: (earlier: Int, later: Int, values: [AppValue])?
    var repeats = 0
    for (index, record) in records.enumerated() {
      let values = keys.map { (record[$0] ?? .null).identityValue }
      if values.allSatisfy(\.isNull) { continue }
      if let earlier = firstHolder[values] {
        repeats += 1
        if firstRepeat == nil { firstRepeat = (earlier, index, values) }
      } else {
        firstHolder[values] = index
      }
    }
    guard let firstRepeat else { return nil }
    let shown = zip(keys, firstRepeat.values).map { key, value in
      "\(key) '\(value.noteText ?? value.description)'"
    }
    let more =
      repeats > 1
      ? " (\(CountedNoun.phrase(repeats - 1, "more record")) \(repeats == 2 ? "repeats" : "repeat") an earlier one's)"
      : ""
    let app = profile?.app ?? "the app"
    let tellsApart =
      keys == ["id"]
      ? "\(app) tells its records apart by id, and a migration matches records by it"
      : "a migration matches \(app)'s records by \(keys.joined(separator: " and ")), so each of them matches its own record the destination holds, in order, or is added"
    return Diagnostic(
      .identityRepeated, at: location,
      "\(label(ofRecord: firstRepeat.later)) has the \(shown.joined(separator: " and ")) of \(label(ofRecord: firstRepeat.earlier))\(more); \(tellsApart); each is kept as a record of its own"
    )
  }
}
