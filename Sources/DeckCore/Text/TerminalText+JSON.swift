extension TerminalText {
  /// JSON text with every character ``isEscaped(_:)`` finds written as a JSON escape
  /// (`\u202e`), so the document shows nothing a terminal acts on and still decodes to exactly
  /// the same strings.
  ///
  /// Such characters can stand only inside JSON strings (JSON's own white space is space, tab,
  /// line feed and carriage return, which are left alone here), where `\uXXXX` means the same
  /// character; every one of them lies in the Basic Multilingual Plane, so one escape suffices.
  /// Encoders already escape U+0000–U+001F inside strings; this catches DEL, the C1 controls and
  /// the bidirectional characters, which they leave raw.
  ///
  /// ```swift
  /// TerminalText.escapedJSON("{\"name\":\"a\u{202E}b\"}")  // {"name":"a\u202eb"}
  /// ```
  public static func escapedJSON(_ json: String) -> String {
    let whiteSpace: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r"]
    let needsEscape = { (scalar: Unicode.Scalar) in isEscaped(scalar) && !whiteSpace.contains(scalar) }
    guard json.unicodeScalars.contains(where: needsEscape) else { return json }
    var result = ""
    result.reserveCapacity(json.utf8.count + 16)
    for scalar in json.unicodeScalars {
      if needsEscape(scalar) {
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
