/// Decoding of HTML character references (`&amp;`, `&#233;`, `&#x1F389;`) in field text.
package enum HTMLEntities {
  /// `text` with its character references decoded; unknown references are left as they are.
  package static func decode(_ text: String) -> String {
    guard text.containsUTF8Byte(UInt8(ascii: "&")) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var index = text.startIndex
    while let amp = text[index...].firstIndex(of: "&") {
      result += text[index..<amp]
      guard let semicolon = text[amp...].prefix(34).firstIndex(of: ";"),
        let decoded = decodeReference(text[text.index(after: amp)..<semicolon])
      else {
        result.append("&")
        index = text.index(after: amp)
        continue
      }
      result += decoded
      index = text.index(after: semicolon)
    }
    result += text[index...]
    return result
  }

  private static func decodeReference(_ body: Substring) -> String? {
    if body.hasPrefix("#") {
      let digits = body.dropFirst()
      let value: UInt32?
      if digits.hasPrefix("x") || digits.hasPrefix("X") {
        value = UInt32(digits.dropFirst(), radix: 16)
      } else {
        value = UInt32(digits, radix: 10)
      }
      return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
    return named[String(body)]
  }

  /// The named references that occur in flashcard text; Anki's editor writes only a few of them.
  private static let named: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
    "ensp": "\u{2002}", "emsp": "\u{2003}", "thinsp": "\u{2009}", "shy": "\u{00AD}",
    "zwnj": "\u{200C}", "zwj": "\u{200D}", "lrm": "\u{200E}", "rlm": "\u{200F}",
    "ndash": "\u{2013}", "mdash": "\u{2014}", "lsquo": "\u{2018}", "rsquo": "\u{2019}",
    "sbquo": "\u{201A}", "ldquo": "\u{201C}", "rdquo": "\u{201D}", "bdquo": "\u{201E}",
    "hellip": "\u{2026}", "laquo": "\u{00AB}", "raquo": "\u{00BB}", "copy": "\u{00A9}",
    "reg": "\u{00AE}", "trade": "\u{2122}", "deg": "\u{00B0}", "plusmn": "\u{00B1}",
    "times": "\u{00D7}", "divide": "\u{00F7}", "middot": "\u{00B7}", "bull": "\u{2022}",
    "sect": "\u{00A7}", "para": "\u{00B6}", "euro": "\u{20AC}", "pound": "\u{00A3}",
    "yen": "\u{00A5}", "cent": "\u{00A2}", "iexcl": "\u{00A1}", "iquest": "\u{00BF}",
    "larr": "\u{2190}", "rarr": "\u{2192}", "uarr": "\u{2191}", "darr": "\u{2193}",
    "harr": "\u{2194}", "le": "\u{2264}", "ge": "\u{2265}", "ne": "\u{2260}",
    "infin": "\u{221E}", "minus": "\u{2212}", "frac12": "\u{00BD}", "frac14": "\u{00BC}",
    "frac34": "\u{00BE}", "sup2": "\u{00B2}", "sup3": "\u{00B3}", "micro": "\u{00B5}",
    "szlig": "\u{00DF}", "agrave": "\u{00E0}", "aacute": "\u{00E1}", "acirc": "\u{00E2}",
    "atilde": "\u{00E3}", "auml": "\u{00E4}", "aring": "\u{00E5}", "aelig": "\u{00E6}",
    "ccedil": "\u{00E7}", "egrave": "\u{00E8}", "eacute": "\u{00E9}", "ecirc": "\u{00EA}",
    "euml": "\u{00EB}", "igrave": "\u{00EC}", "iacute": "\u{00ED}", "icirc": "\u{00EE}",
    "iuml": "\u{00EF}", "ntilde": "\u{00F1}", "ograve": "\u{00F2}", "oacute": "\u{00F3}",
    "ocirc": "\u{00F4}", "otilde": "\u{00F5}", "ouml": "\u{00F6}", "oslash": "\u{00F8}",
    "ugrave": "\u{00F9}", "uacute": "\u{00FA}", "ucirc": "\u{00FB}", "uuml": "\u{00FC}",
    "yacute": "\u{00FD}", "yuml": "\u{00FF}", "Agrave": "\u{00C0}", "Aacute": "\u{00C1}",
    "Acirc": "\u{00C2}", "Atilde": "\u{00C3}", "Auml": "\u{00C4}", "Aring": "\u{00C5}",
    "AElig": "\u{00C6}", "Ccedil": "\u{00C7}", "Egrave": "\u{00C8}", "Eacute": "\u{00C9}",
    "Ecirc": "\u{00CA}", "Euml": "\u{00CB}", "Igrave": "\u{00CC}", "Iacute": "\u{00CD}",
    "Icirc": "\u{00CE}", "Iuml": "\u{00CF}", "Ntilde": "\u{00D1}", "Ograve": "\u{00D2}",
    "Oacute": "\u{00D3}", "Ocirc": "\u{00D4}", "Otilde": "\u{00D5}", "Ouml": "\u{00D6}",
    "Oslash": "\u{00D8}", "Ugrave": "\u{00D9}", "Uacute": "\u{00DA}", "Ucirc": "\u{00DB}",
    "Uuml": "\u{00DC}", "Yacute": "\u{00DD}", "oelig": "\u{0153}", "OElig": "\u{0152}",
  ]
}
