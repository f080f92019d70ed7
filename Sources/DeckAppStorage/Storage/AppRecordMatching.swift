/// What a write does with a record that matches one the destination already holds.
public enum ExistingRecordPolicy: String, Sendable, Hashable, CaseIterable {
  /// Update the held record when the new one differs; leave it when they are equal (the default).
  case update
  /// Leave every held record as it is; only add records that match none.
  case skip
  /// Add every record, matching or not (the destination may then hold both).
  case add
  /// Refuse the whole write when any record matches a held one.
  case fail
}

/// How records being written are matched with the records a destination already holds, so that
/// importing the same deck twice changes nothing the second time.
///
/// Records match when their identity keys hold equal values: the keys given here, else the
/// profile's ``AppRecordProfile/identityKeys`` (Flashzilla `id`, NeoMnemo `keyword`, Flashcard
/// Quiz `word`, Idealic `title` and `text`), else, in a Core Data or SwiftData store, the
/// entity's uniqueness constraint (`@Attribute(.unique)`); without any, when the whole records
/// are equal. A record with no value under any identity key is matched by its whole content, and
/// so is a record without keys (`{}`), which matches a held one without keys.
public struct AppRecordMatching: Sendable, Hashable {
  /// What to do with a matching record.
  public var policy: ExistingRecordPolicy
  /// The keys that identify a record, when not the profile's.
  public var keys: [String]?

  /// Creates a matching rule.
  public init(policy: ExistingRecordPolicy = .update, keys: [String]? = nil) {
    self.policy = policy
    self.keys = keys
  }
}

/// How many records a write added, updated, left unchanged, or skipped.
public struct AppRecordMergeSummary: Sendable, Hashable, CustomStringConvertible {
  /// Records that matched none the destination held, written as new ones.
  public var added = 0
  /// Records that matched a held one and changed it.
  public var updated = 0
  /// Records that matched a held one with the same content.
  public var unchanged = 0
  /// Records that matched a held one that `--existing skip` left as it was, though they differ.
  public var skipped = 0

  /// Creates a summary.
  public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
    self.added = added
    self.updated = updated
    self.unchanged = unchanged
    self.skipped = skipped
  }

  /// "2 added, 1 updated, 5 unchanged" (skipped only when there are some).
  public var description: String {
    var parts = ["\(added) added", "\(updated) updated", "\(unchanged) unchanged"]
    if skipped > 0 { parts.append("\(skipped) skipped") }
    return parts.joined(separator: ", ")
  }
}
