import DeckCore

/// Paths to values inside a list of records, as writers report them (`[3].score`, `[0].tags[2]`).
enum ValuePath {
  /// `location` narrowed to the record and key a path names: `[3].score` gives the item
  /// `record 4, key 'score'` (records counted from 1) after whatever item `location` already has.
  static func location(_ path: String, in location: SourceLocation) -> SourceLocation {
    var place = location
    var rest = Substring(path)
    var parts: [String] = []
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]"),
      let index = Int(rest[rest.index(after: rest.startIndex)..<close])
    {
      parts.append(AppRecords.label(ofRecordAt: index))
      rest = rest[rest.index(after: close)...]
      if rest.hasPrefix(".") { rest = rest.dropFirst() }
    }
    if !rest.isEmpty { parts.append("key '\(rest)'") }
    let described = parts.joined(separator: ", ")
    if !described.isEmpty { place.item = [location.item, described].compactMap { $0 }.joined(separator: ": ") }
    return place
  }
}
