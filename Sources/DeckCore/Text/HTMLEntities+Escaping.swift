extension HTMLEntities {
  /// What ``escaping(_:quotes:carriageReturns:)`` does with a carriage return.
  package enum CarriageReturns: Sendable {
    /// Kept as it is.
    case kept
    /// Written as a marked line break that says what it stood for: `\r\n` as
    /// `<br data-crlf>`, a lone `\r` as `<br data-cr>`.
    case markedBreaks
  }

  /// Plain text as note-field HTML: `&`, `<` and `>` as character references (and `"` as
  /// `&quot;`, `'` as `&#x27;` when `quotes`, as Anki's CSV import escapes them), a line feed as
  /// `<br>` (kept when not `breaksLines`), carriage returns as `carriageReturns` says.
  ///
  /// ```swift
  /// HTMLEntities.escaping("a < b\nc")  // "a &lt; b<br>c"
  /// ```
  package static func escaping(
    _ text: String, quotes: Bool = false, breaksLines: Bool = true, carriageReturns: CarriageReturns = .kept
  ) -> String {
    let marksReturns = carriageReturns == .markedBreaks
    guard
      text.containsUTF8Byte(where: {
        $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || (breaksLines && $0 == 0x0A)
          || (quotes && ($0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'"))) || (marksReturns && $0 == 0x0D)
      })
    else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    var afterReturn = false
    for scalar in text.unicodeScalars {
      if afterReturn {
        afterReturn = false
        if scalar == "\n" {
          result += "<br data-crlf>"
          continue
        }
        result += "<br data-cr>"
      }
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"" where quotes: result += "&quot;"
      case "'" where quotes: result += "&#x27;"
      case "\n" where breaksLines: result += "<br>"
      case "\r" where marksReturns: afterReturn = true
      default: result.unicodeScalars.append(scalar)
      }
    }
    if afterReturn { result += "<br data-cr>" }
    return result
  }
}
