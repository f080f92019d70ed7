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

extension String {
  /// The text with each run of Unicode white space (`White_Space`, a no-break space too) as one
  /// space, and none at either end: the words of the text, as Rust's
  /// `split_whitespace().join(" ")` gives them. Text without white space is returned as it is.
  package func collapsingWhiteSpace() -> String {
    let scalars = unicodeScalars
    var result = ""
    var wordStart: String.Index?
    var index = scalars.startIndex
    // Each word is appended whole (scalar by scalar would be several times slower), with one
    // space before it when it is not the first.
    while index < scalars.endIndex {
      if Self.isWhiteSpace(scalars[index]) {
        if let start = wordStart {
          if !result.isEmpty { result += " " }
          result += Substring(scalars[start..<index])
          wordStart = nil
        }
      } else if wordStart == nil {
        wordStart = index
      }
      scalars.formIndex(after: &index)
    }
    if let start = wordStart {
      // One word from the start to the end: the text itself.
      if start == scalars.startIndex && result.isEmpty { return self }
      if !result.isEmpty { result += " " }
      result += Substring(scalars[start...])
    }
    return result
  }

  /// Whether `scalar` is Unicode white space, ASCII answered without a property lookup.
  private static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII ? (scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)) : scalar.properties.isWhitespace
  }
}
