import DeckCore
import Foundation

/// The plain-text forms Anki derives from a field: the stripped text it sorts by (`notes.sfld`)
/// and the checksum it finds duplicates by (`notes.csum`).
///
/// ```swift
/// let stripped = AnkiFieldText.strippingHTMLPreservingMediaFileNames("Hello <b>world</b> &amp; friends")
/// // "Hello world & friends"
/// AnkiFieldText.checksum(stripped)   // 3916110777
/// ```
///
/// The patterns are those of Anki's `rslib/src/text.rs` (`HTML`, `HTML_MEDIA_TAGS`), applied in
/// Anki's order: media tags become `" name "`, then comments, `<style>` and `<script>` blocks and
/// every other tag are removed, then character references are decoded and NBSP becomes a space.
/// Nothing is trimmed.
public enum AnkiFieldText {
  /// `html` with media tags replaced by their file names (padded with a space on each side) and
  /// all other markup removed, as Anki computes the sort field and the checksum.
  public static func strippingHTMLPreservingMediaFileNames(_ html: String) -> String {
    guard html.utf8.contains(UInt8(ascii: "<")) else { return decodingEntities(html) }
    let withNames = MarkupScan.mayHoldMediaTag(html) ? replacingMediaTagsWithNames(html) : html
    return strippingHTML(withNames)
  }

  /// `html` with each media tag Anki's `HTML_MEDIA_TAGS` finds (``HTMLMediaTags``) replaced by
  /// its file name as written, with a space on each side.
  static func replacingMediaTagsWithNames(_ html: String) -> String {
    var text = html
    let replaced = text.withUTF8 { bytes -> String? in
      let tags = HTMLMediaTags.matches(in: bytes)
      guard !tags.isEmpty else { return nil }
      var output: [UInt8] = []
      output.reserveCapacity(bytes.count)
      var index = 0
      for tag in tags {
        output += bytes[index..<tag.whole.lowerBound]
        output.append(UInt8(ascii: " "))
        output += bytes[tag.value]
        output.append(UInt8(ascii: " "))
        index = tag.whole.upperBound
      }
      output += bytes[index...]
      return String(decoding: output, as: UTF8.self)
    }
    return replaced ?? html
  }

  /// `html` with every tag, comment, `<style>` and `<script>` block removed and character
  /// references decoded (Anki's `strip_html`).
  public static func strippingHTML(_ html: String) -> String {
    decodingEntities(HTMLPatternScan.removingMatches(in: html))
  }

  /// `html` with every tag, comment, `<style>` and `<script>` block removed and character
  /// references left as they are (Anki's `strip_html_preserving_entities`).
  static func strippingHTMLPreservingEntities(_ html: String) -> String {
    HTMLPatternScan.removingMatches(in: html)
  }

  /// `html` as one line of plain text, as Anki's "Notes in Plain Text" export writes a field with
  /// "Include HTML and media references" off (`html_to_text_line`): line breaks, `<br>` and
  /// `<div>` become spaces, `[[type:…]]` and `[sound:…]` go, then ``strippingHTML(_:)`` (so
  /// images go too), then white space is trimmed from both ends.
  ///
  /// ```swift
  /// AnkiFieldText.plainTextLine("line1<br>line2 [sound:a.mp3] &amp; <img src=\"b.png\">")
  /// // "line1 line2  &"
  /// ```
  public static func plainTextLine(_ html: String) -> String {
    trimmingWhiteSpace(untrimmedPlainTextLine(html))
  }

  /// ``plainTextLine(_:)`` before the white space at its ends is trimmed.
  private static func untrimmedPlainTextLine(_ html: String) -> String {
    var text = html
    if html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "\n") }) {
      text = MarkupScan.replacingLineBreaks(html) ?? replace(Patterns.lineBreak, in: html, with: " ")
    }
    text = BracketTagScan.removingSoundTags(in: BracketTagScan.removingTypeAnswerTags(in: text))
    return strippingHTML(text)
  }

  /// `text` as Anki's plain-text exports write a field or a card's side with "Include HTML and
  /// media references" off: its ``plainTextLine(_:)`` when making that line replaces anything
  /// (a line break, a sound tag, a tag, a character reference), else `text` as it is, white space
  /// at its ends included. (The exports keep their text unless `html_to_text_line` gave a new
  /// string, and that function trims only a new string: `" z "` stays `" z "`, `" <b>z</b> "`
  /// becomes `"z"`.)
  static func plainTextExport(_ text: String) -> String {
    exported(text, asLine: untrimmedPlainTextLine(text))
  }

  /// `text`, or its one line `line` trimmed when that differs from it (``plainTextExport(_:)``).
  static func exported(_ text: String, asLine line: String) -> String {
    line.isExactly(text) ? text : trimmingWhiteSpace(line)
  }

  /// A note's field as Anki's "Notes in Plain Text" export writes it with "Include HTML and
  /// media references" off: `<style>` blocks and `[[type:…]]` boxes removed, then its
  /// ``plainTextLine(_:)`` when making that line replaces anything (a line break, a sound tag, a
  /// tag, a character reference), else the field as it is, white space at its ends included.
  ///
  /// ```swift
  /// AnkiFieldText.noteExportPlainText(" z ")              // " z "
  /// AnkiFieldText.noteExportPlainText(" <b>z</b><br> ")   // "z"
  /// ```
  public static func noteExportPlainText(_ field: String) -> String {
    plainTextExport(BracketTagScan.removingRedundantSections(in: field))
  }

  /// `text` without the Unicode white space at either end (Rust's `str::trim`).
  static func trimmingWhiteSpace(_ text: String) -> String {
    let trimmed = text[...].trimmingRustWhiteSpace()
    return trimmed.startIndex == text.startIndex && trimmed.endIndex == text.endIndex ? text : String(trimmed)
  }

  /// ``plainTextLine(_:)`` done with Anki's regular expressions alone.
  static func plainTextLineWithPatterns(_ html: String) -> String {
    untrimmedPlainTextLineWithPatterns(html).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// ``plainTextLineWithPatterns(_:)`` before the white space at its ends is trimmed.
  static func untrimmedPlainTextLineWithPatterns(_ html: String) -> String {
    var text = replace(Patterns.lineBreak, in: html, with: " ")
    text = replace(Patterns.typeAnswer, in: text, with: "")
    text = replace(Patterns.sound, in: text, with: "")
    return strippingHTMLWithPattern(text)
  }

  /// ``strippingHTML(_:)`` done with Anki's regular expression itself; the byte scanner it
  /// uses instead is checked against this.
  static func strippingHTMLWithPattern(_ html: String) -> String {
    decodingEntities(replace(Patterns.markup, in: html, with: ""))
  }

  /// ``strippingHTMLPreservingMediaFileNames(_:)`` done with Anki's regular expressions alone.
  static func strippingHTMLPreservingMediaFileNamesWithPatterns(_ html: String) -> String {
    strippingHTMLWithPattern(replace(Patterns.mediaTag, in: html, with: " $1$2$3 "))
  }

  /// Anki's field checksum: the first four bytes of the SHA-1 of `stripped` (UTF-8), read as a
  /// big-endian unsigned number. `stripped` is the first field after
  /// ``strippingHTMLPreservingMediaFileNames(_:)``.
  public static func checksum(_ stripped: String) -> UInt32 {
    let digest = SHA1.digest(utf8: stripped)
    return digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
  }

  /// Character references decoded as Anki's `decode_entities` decodes them
  /// (``HTMLCharacterReferences/decodedAsAnki(_:)``).
  static func decodingEntities(_ text: String) -> String {
    HTMLCharacterReferences.decodedAsAnki(text)
  }

  static func replace(_ pattern: NSRegularExpression?, in text: String, with template: String)
    -> String
  {
    guard let pattern else { return text }
    let range = NSRange(text.startIndex..<text.endIndex, in: text)
    return pattern.stringByReplacingMatches(in: text, options: [], range: range, withTemplate: template)
  }

  /// The compiled patterns; `nil` only if a literal below failed to compile, which the tests of
  /// this type would show at once.
  enum Patterns {
    /// Anki's `HTML`: comments, style and script blocks, then any tag.
    static let markup = try? NSRegularExpression(
      pattern: #"(<!--.*?-->)|(<style.*?>.*?</style>)|(<script.*?>.*?</script>)|(<.*?>)"#,
      options: [.caseInsensitive, .dotMatchesLineSeparators])

    /// Anki's `PERSISTENT_HTML_SPACERS`: `<br>` (`<br/>`, `<br />`), `<div>` and a line feed.
    static let lineBreak = try? NSRegularExpression(pattern: #"<br\s*/?>|<div>|\n"#, options: [.caseInsensitive])

    /// Anki's `TYPE_TAG`: a type-the-answer box, `[[type:Field]]`.
    static let typeAnswer = try? NSRegularExpression(pattern: #"\[\[type:[^\]]+\]\]"#)

    /// Anki's `SOUND_TAG`: `[sound:name]`.
    static let sound = try? NSRegularExpression(pattern: #"\[sound:([^\]]+)\]"#)

    /// Anki's `HTML_MEDIA_TAGS`: an img/audio/video/object/source tag with a `src` or `data`
    /// attribute, double-quoted (group 1), single-quoted (2) or bare (3; Anki writes `[^ >]`, but
    /// in its verbose pattern Rust drops the space from the class). Only the tests run it,
    /// on small fields, as a second reading of ``HTMLMediaTags``: Foundation's engine backtracks,
    /// and takes time exponential in the quoted runs of a tag without a `src`.
    static let mediaTag = try? NSRegularExpression(
      pattern:
        #"<\b(?:img|audio|video|object|source)\b(?:[^>]|"[^"]+?"|'[^']+?')+?\b(?:src|data)\b=(?:"([^"]+?)"[^>]*>|'([^']+?)'[^>]*>|([^>]+?)(?: [^>]*>|>))"#,
      options: [.caseInsensitive, .dotMatchesLineSeparators])
  }
}

/// Byte scans that stand in for Anki's regular expressions on the hot path: a prefilter for the
/// media-tag pattern and Anki's `PERSISTENT_HTML_SPACERS`. (Anki's `HTML` pattern is
/// ``HTMLPatternScan``.) Case-insensitive matching lets a few non-ASCII letters stand for ASCII
/// ones (`ſ` for `s`); text with a non-ASCII byte right after a `<` is therefore left to the
/// regular expression (``hasNonASCIITagStart(_:)``).
enum MarkupScan {
  /// Whether a `<` in `text` is followed, before the next `>` and within eight bytes, by a
  /// non-ASCII byte.
  static func hasNonASCIITagStart(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        if bytes[index] == UInt8(ascii: "<") {
          var next = index + 1
          while next < bytes.count, next <= index + 8, bytes[next] != UInt8(ascii: ">") {
            if bytes[next] >= 0x80 { return true }
            next += 1
          }
        }
        index += 1
      }
      return false
    }
  }

  /// Whether `text` may hold a tag the media pattern matches: a `<` directly followed by `img`,
  /// `audio`, `video`, `object` or `source` (in any case), or by a non-ASCII byte.
  static func mayHoldMediaTag(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "<") {
        let rest = UnsafeBufferPointer(rebasing: bytes[(index + 1)...])
        if let first = rest.first, first >= 0x80 { return true }
        for name in mediaTagNames where startsCaseInsensitive(rest, with: name) { return true }
      }
      return false
    }
  }

  /// `text` with each match of Anki's `PERSISTENT_HTML_SPACERS`, `(?i)<br\s*/?>|<div>|\n`,
  /// replaced by a space; nil when a non-ASCII byte follows a `<` within eight bytes, or ends the
  /// white space after a `<br` (a case-insensitive letter or Unicode white space that the
  /// regular expression must judge).
  static func replacingLineBreaks(_ text: String) -> String? {
    guard !hasNonASCIITagStart(text) else { return nil }
    var text = text
    return text.withUTF8 { bytes -> String? in
      var output: [UInt8] = []
      output.reserveCapacity(bytes.count)
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\n") {
          output.append(UInt8(ascii: " "))
          index += 1
          continue
        }
        if byte == UInt8(ascii: "<") {
          switch lineBreakTag(bytes, at: index) {
          case .end(let end):
            output.append(UInt8(ascii: " "))
            index = end
            continue
          case .undecided: return nil
          case .none: break
          }
        }
        output.append(byte)
        index += 1
      }
      return String(decoding: output, as: UTF8.self)
    }
  }

  /// What stands at a `<`: a line-break tag and where it ends, something else, or something only
  /// the regular expression can judge.
  private enum LineBreakTag {
    case end(Int)
    case none
    case undecided
  }

  /// `<br\s*/?>` or `<div>` (ASCII case ignored) at the `<` at `start`.
  private static func lineBreakTag(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> LineBreakTag {
    let rest = UnsafeBufferPointer(rebasing: bytes[start...])
    if startsCaseInsensitive(rest, with: divTag) { return .end(start + divTag.count) }
    guard startsCaseInsensitive(rest, with: breakOpen) else { return .none }
    var index = start + breakOpen.count
    while index < bytes.count, asciiWhiteSpace.contains(bytes[index]) { index += 1 }
    if index < bytes.count, bytes[index] >= 0x80 { return .undecided }
    if index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { return .none }
    return .end(index + 1)
  }

  private static let divTag = Array("<div>".utf8)
  private static let breakOpen = Array("<br".utf8)
  /// What `\s` matches among ASCII bytes: tab, line feed, vertical tab, form feed, carriage
  /// return and space.
  private static let asciiWhiteSpace: Set<UInt8> = [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20]

  private static let mediaTagNames: [[UInt8]] = ["img", "audio", "video", "object", "source"].map { Array($0.utf8) }
  /// Whether `bytes` starts with `prefix` (lowercase ASCII), ignoring ASCII case.
  private static func startsCaseInsensitive(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: [UInt8]) -> Bool {
    guard bytes.count >= prefix.count else { return false }
    for offset in 0..<prefix.count where lowercased(bytes[offset]) != prefix[offset] {
      return false
    }
    return true
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }
}
