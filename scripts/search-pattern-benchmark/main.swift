import Foundation

// The hostile shapes: runs of `*` before a letter the name does not hold, against a long name
// (or tag) of the letter the runs do match. ICU tries every way to share the name among the
// runs before it fails; AnkiSearchPattern keeps each place the pattern may be at once.

/// Seconds `body` takes.
func seconds(_ body: () -> Bool) -> (Double, Bool) {
  let start = DispatchTime.now().uptimeNanoseconds
  let result = body()
  return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, result)
}

/// deckport's old expression for a one-level `deck:` search of `text` (no escapes).
func oldDeckExpression(_ text: String) -> NSRegularExpression? {
  let body = text.unicodeScalars.map { scalar -> String in
    switch scalar {
    case "*": "[^\\n]*"
    case "_": "[^\\n]"
    default: NSRegularExpression.escapedPattern(for: String(scalar))
    }
  }.joined()
  return try? NSRegularExpression(pattern: "^(?:" + body + ")(?:\\z|\\x{1f})", options: [.caseInsensitive])
}

/// deckport's old expression for a `tag:` search of `text` (no escapes).
func oldTagExpression(_ text: String) -> NSRegularExpression? {
  let body = text.unicodeScalars.map { scalar -> String in
    switch scalar {
    case "*": "\\S*"
    case "_": "\\S"
    default: NSRegularExpression.escapedPattern(for: String(scalar))
    }
  }.joined()
  return try? NSRegularExpression(
    pattern: "^(?:" + body + ")(?:::.*)?$", options: [.caseInsensitive, .dotMatchesLineSeparators])
}

func format(_ time: Double) -> String {
  time >= 0.01 ? String(format: "%.2f s", time) : String(format: "%.4f s", time)
}

print("| Search | Name | NSRegularExpression | AnkiSearchPattern |")
print("| --- | --- | --- | --- |")
for (kind, pattern) in [("deck", "*a*a*a*a*b"), ("tag", "*a*a*a*a*b"), ("deck", "*a*a*a*a*a*b")] {
  let sizes = pattern.count > 10 ? [25, 50] : [50, 100, 200]
  for size in sizes + [100_000] {
    let name = String(repeating: "a", count: size)
    let scalars = Array(name.unicodeScalars)
    let old: String
    if size <= 1000, let expression = kind == "deck" ? oldDeckExpression(pattern) : oldTagExpression(pattern) {
      let (time, found) = seconds {
        expression.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
      }
      old = format(time) + (found ? " (found)" : "")
    } else {
      old = "—"
    }
    let compiled =
      kind == "deck"
      ? AnkiSearchPattern(levels: [pattern], separator: "\u{1f}", wildcard: .anyButLineFeed)
      : AnkiSearchPattern(pattern, wildcard: .notWhiteSpace, childSeparator: Array("::".unicodeScalars))
    let (time, found) = seconds { compiled.matchesNameOrChild(scalars) }
    print("| `\(kind):\(pattern)` | `a` × \(size) | \(old) | \(format(time))\(found ? " (found)" : "") |")
  }
}
