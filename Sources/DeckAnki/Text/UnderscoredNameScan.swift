import DeckCore

/// Anki's patterns for the `_`-prefixed files a note type names (`rslib/src/text.rs`), applied by
/// a scan of the UTF-8 bytes in time linear in the CSS or template (a backtracking engine takes
/// quadratic time on `_` repeated without a `)`, or `[sound:_` without a `]`). Each returns the
/// group that matched, for each match in order.
///
/// `UNDERSCORED_CSS_IMPORTS`, `(?xi)`, is five alternatives, since its alternations are not
/// grouped the way its layout suggests: `@import\s+"(_[^"]*.css)"`, `'(_[^']*.css)'`,
/// `url\(\s*"(_[^"]+)"`, `'(_[^']+)'` and `(_.+?)\s*\)`, where `.` is any scalar but a line feed,
/// `\s` is Unicode white space and `css` may be spelt `cſſ`.
///
/// `UNDERSCORED_REFERENCES`, `(?x)`, is four: `\[sound:(_[^]]+)\]`, `"(_[^"]+)"`, `'(_[^']+)'`
/// and `\b(?:src|data)=(_[^ >]+)`, where `\b` is a Unicode word boundary and, verbose mode
/// ignoring white space even in a class, `[^ >]` is `[^>]`: an unquoted value runs to the next `>`.
enum UnderscoredNameScan {
  /// The names `UNDERSCORED_CSS_IMPORTS` finds in `css`.
  static func cssImports(in css: String) -> [String] {
    names(in: css, matcher: CSSMatcher())
  }

  /// The names `UNDERSCORED_REFERENCES` finds in `template`.
  static func templateReferences(in template: String) -> [String] {
    names(in: template, matcher: TemplateMatcher())
  }

  /// The value of each match of `matcher`'s pattern in `text` (every name starts with `_`, so a
  /// text without one has none).
  private static func names<Matcher: NameMatcher>(in text: String, matcher: Matcher) -> [String] {
    guard text.utf8.contains(UInt8(ascii: "_")) else { return [] }
    var matcher = matcher
    var bytesOfText = text
    return bytesOfText.withUTF8 { bytes in
      let found = PatternScan.matches(in: bytes, startBytes: Matcher.starts, match: { matcher.match(bytes, at: $0) })
      return found.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.value]), as: UTF8.self) }
    }
  }

  /// One of the two patterns: the bytes a match can start with, and the match at an offset.
  private protocol NameMatcher {
    static var starts: PatternScan.StartBytes { get }
    mutating func match(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (end: Int, value: Range<Int>)?
  }

  /// The five alternatives of `UNDERSCORED_CSS_IMPORTS` at one offset, with the searches for
  /// their delimiters kept across the scan of one text.
  private struct CSSMatcher: NameMatcher {
    static let starts = PatternScan.StartBytes([
      UInt8(ascii: "@"), UInt8(ascii: "'"), UInt8(ascii: "u"), UInt8(ascii: "U"), UInt8(ascii: "_"),
    ])
    private static let importKeyword = FoldedLiteral("@import")
    private static let urlFunction = FoldedLiteral("url(")
    private static let css = FoldedLiteral("css")
    private var doubleQuote = LiteralSearch(FoldedLiteral("\""))
    private var singleQuote = LiteralSearch(FoldedLiteral("'"))
    private var closeParenthesis = LiteralSearch(FoldedLiteral(")"))
    private var lineFeed = LiteralSearch(FoldedLiteral("\n"))
    /// The last `)` whose preceding white space was measured, and where that white space starts.
    private var measuredParenthesis: (offset: Int, whiteSpaceStart: Int)?

    /// The end of the match at `start` and the range of its group.
    mutating func match(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (end: Int, value: Range<Int>)? {
      switch bytes[start] {
      case UInt8(ascii: "@"):
        guard let keywordEnd = Self.importKeyword.end(in: bytes, at: start) else { return nil }
        var quote = keywordEnd
        while let length = PatternScan.whiteSpaceLength(bytes, at: quote) { quote += length }
        guard quote > keywordEnd, quote < bytes.count, bytes[quote] == UInt8(ascii: "\"") else { return nil }
        return quotedCSSName(bytes, openingQuote: quote, closing: &doubleQuote)
      case UInt8(ascii: "'"):
        if let name = quotedCSSName(bytes, openingQuote: start, closing: &singleQuote) { return name }
        return quotedName(bytes, openingQuote: start, closing: &singleQuote)
      case UInt8(ascii: "_"):
        return bareURL(bytes, at: start)
      default:
        guard let functionEnd = Self.urlFunction.end(in: bytes, at: start) else { return nil }
        var quote = functionEnd
        while let length = PatternScan.whiteSpaceLength(bytes, at: quote) { quote += length }
        guard quote < bytes.count, bytes[quote] == UInt8(ascii: "\"") else { return nil }
        return quotedName(bytes, openingQuote: quote, closing: &doubleQuote)
      }
    }

    /// `Q(_[^Q]*.css)Q` at the quote `openingQuote`, `Q` being that quote. The greedy `[^Q]*`
    /// stops before the first closing quote, so either `.` is that quote and `css` and a quote
    /// follow it, or `.css` ends right at it.
    private func quotedCSSName(
      _ bytes: UnsafeBufferPointer<UInt8>, openingQuote: Int, closing: inout LiteralSearch
    ) -> (end: Int, value: Range<Int>)? {
      let underscore = openingQuote + 1
      guard underscore < bytes.count, bytes[underscore] == UInt8(ascii: "_"),
        let close = closing.first(in: bytes, atOrAfter: underscore + 1)
      else { return nil }
      let quote = bytes[openingQuote]
      if let cssEnd = Self.css.end(in: bytes, at: close.end), cssEnd < bytes.count, bytes[cssEnd] == quote {
        return (cssEnd + 1, underscore..<cssEnd)
      }
      // `.` is one scalar, not a line feed, starting no earlier than after the underscore, and at
      // most four bytes before `css` (itself at most five bytes).
      var dot = max(underscore + 1, close.start - 9)
      while dot < close.start {
        if bytes[dot] & 0xC0 != 0x80, bytes[dot] != UInt8(ascii: "\n"),
          let dotEnd = PatternScan.scalarEnd(bytes, at: dot), Self.css.end(in: bytes, at: dotEnd) == close.start
        {
          return (close.end, underscore..<close.start)
        }
        dot += 1
      }
      return nil
    }

    /// `url(_.+?\s*\)`'s tail, `(_.+?)\s*\)`, at the underscore `start`: the body ends where only
    /// white space stands between it and the first `)` after its first scalar, and may not cross
    /// a line feed.
    private mutating func bareURL(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (end: Int, value: Range<Int>)?
    {
      guard let firstEnd = PatternScan.scalarEnd(bytes, at: start + 1),
        let parenthesis = closeParenthesis.first(in: bytes, atOrAfter: firstEnd)
      else { return nil }
      let whiteSpaceStart: Int
      if let measured = measuredParenthesis, measured.offset == parenthesis.start {
        whiteSpaceStart = measured.whiteSpaceStart
      } else {
        // Measured back to the underscore at most; a later underscore measures from further on.
        whiteSpaceStart = PatternScan.whiteSpaceRunStart(bytes, endingAt: parenthesis.start, notBefore: start + 1)
        if whiteSpaceStart > start + 1 { measuredParenthesis = (parenthesis.start, whiteSpaceStart) }
      }
      let bodyEnd = max(firstEnd, whiteSpaceStart)
      if let feed = lineFeed.first(in: bytes, atOrAfter: start + 1), feed.start < bodyEnd { return nil }
      return (parenthesis.end, start..<bodyEnd)
    }
  }

  /// The four alternatives of `UNDERSCORED_REFERENCES` at one offset, with the searches for their
  /// delimiters kept across the scan of one text.
  private struct TemplateMatcher: NameMatcher {
    static let starts = PatternScan.StartBytes([
      UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "s"), UInt8(ascii: "d"),
    ])
    private static let soundOpen = FoldedLiteral("[sound:_", ignoringCase: false)
    private static let attributes = [
      FoldedLiteral("src=_", ignoringCase: false), FoldedLiteral("data=_", ignoringCase: false),
    ]
    private var closeBracket = LiteralSearch(FoldedLiteral("]"))
    private var doubleQuote = LiteralSearch(FoldedLiteral("\""))
    private var singleQuote = LiteralSearch(FoldedLiteral("'"))

    /// The end of the match at `start` and the range of its group.
    mutating func match(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (end: Int, value: Range<Int>)? {
      switch bytes[start] {
      case UInt8(ascii: "["):
        guard let open = Self.soundOpen.end(in: bytes, at: start),
          let close = closeBracket.first(in: bytes, atOrAfter: open), close.start > open
        else { return nil }
        return (close.end, open - 1..<close.start)
      case UInt8(ascii: "\""): return quotedName(bytes, openingQuote: start, closing: &doubleQuote)
      case UInt8(ascii: "'"): return quotedName(bytes, openingQuote: start, closing: &singleQuote)
      default:
        guard !WordCharacter.ends(at: start, in: bytes),
          let valueStart = Self.attributes.lazy.compactMap({ $0.end(in: bytes, at: start) }).first
        else { return nil }
        // The value runs to the first '>': every byte scanned is part of the match.
        var end = valueStart
        while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
        guard end > valueStart else { return nil }
        return (end, valueStart - 1..<end)
      }
    }
  }

  /// `Q(_[^Q]+)Q` at the quote `openingQuote`, `Q` being that quote.
  private static func quotedName(
    _ bytes: UnsafeBufferPointer<UInt8>, openingQuote: Int, closing: inout LiteralSearch
  ) -> (end: Int, value: Range<Int>)? {
    let underscore = openingQuote + 1
    guard underscore < bytes.count, bytes[underscore] == UInt8(ascii: "_"),
      let close = closing.first(in: bytes, atOrAfter: underscore + 1), close.start > underscore + 1
    else { return nil }
    return (close.end, underscore..<close.start)
  }
}
