extension Substring {
  /// The text without Unicode white space (`White_Space`) at either end, scalar by scalar, as
  /// Rust's `str::trim` leaves it.
  package func trimmingRustWhiteSpace() -> Substring {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return self[endIndex...] }
    if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return self }
    return Substring(scalars[first...last])
  }

  /// The text without Unicode white space at its start (Rust's `str::trim_start`).
  package func trimmingRustWhiteSpaceAtStart() -> Substring {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return self[endIndex...] }
    return first == scalars.startIndex ? self : Substring(scalars[first...])
  }
}
