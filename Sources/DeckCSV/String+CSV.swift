import DeckCore

/// Small string tests the CSV reader and writer run on every field.
extension String {
  /// The string without leading and trailing spaces, tabs and line breaks.
  func trimmingASCIIWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
