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
    guard html.contains("<") else { return decodingEntities(html) }
    let withNames = replace(Patterns.mediaTag, in: html, with: " $1$2$3 ")
    return strippingHTML(withNames)
  }

  /// `html` with every tag, comment, `<style>` and `<script>` block removed and character
  /// references decoded (Anki's `strip_html`).
  public static func strippingHTML(_ html: String) -> String {
    guard html.contains("<") else { return decodingEntities(html) }
    return decodingEntities(replace(Patterns.markup, in: html, with: ""))
  }

  /// Anki's field checksum: the first four bytes of the SHA-1 of `stripped` (UTF-8), read as a
  /// big-endian unsigned number. `stripped` is the first field after
  /// ``strippingHTMLPreservingMediaFileNames(_:)``.
  public static func checksum(_ stripped: String) -> UInt32 {
    let digest = SHA1.digest(Data(stripped.utf8))
    return digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
  }

  /// Character references decoded and NBSP turned into a space, when the text holds an `&`.
  static func decodingEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    return HTMLEntities.decode(text).replacingOccurrences(of: "\u{00A0}", with: " ")
  }

  private static func replace(_ pattern: NSRegularExpression?, in text: String, with template: String)
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

    /// Anki's `HTML_MEDIA_TAGS`: an img/audio/video/object/source tag with a `src` or `data`
    /// attribute, double-quoted (group 1), single-quoted (2) or bare (3).
    static let mediaTag = try? NSRegularExpression(
      pattern: #"<\b(?:img|audio|video|object|source)\b(?:[^>]|"[^"]+?"|'[^']+?')+?\b(?:src|data)\b=(?:"([^"]+?)"[^>]*>|'([^']+?)'[^>]*>|([^ >]+?)(?: [^>]*>|>))"#,
      options: [.caseInsensitive, .dotMatchesLineSeparators])
  }
}
