/// How records are stored under a plist key when deckport writes a new key.
///
/// Writing into a key that already holds records keeps the form it has.
public enum PlistRecordStyle: String, Sendable, Hashable, CaseIterable {
  /// `JSONEncoder` output stored as a data value (Flashzilla's way; `UserDefaults.set(data, forKey:)`).
  case json
  /// An array of dictionaries (`UserDefaults.set([[String: Any]], forKey:)`).
  case native
}
