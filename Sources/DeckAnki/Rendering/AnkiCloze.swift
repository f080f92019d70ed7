import DeckCore
import Foundation

/// Anki's cloze deletions as its card templates render them: the `{{cloze:Field}}` and
/// `{{cloze-only:Field}}` filters (the rules of Anki's
/// `rslib/src/cloze.rs` and `rslib/src/image_occlusion/imageocclusion.rs`). The cloze numbers a
/// field holds are ``ClozeNumbers``'s, read by the same ``ClozeTokens``.
///
/// ```swift
/// AnkiCloze.rendering("{{c1::Paris::city}} is in {{c2::France}}", clozeNumber: 1, isAnswer: false)
/// // <span class="cloze" data-cloze="Paris" data-ordinal="1">[city]</span> is in
/// // <span class="cloze-inactive" data-ordinal="2">France</span>
/// AnkiCloze.renderingOnly("{{c1::a}} {{c1::b::hint}}", clozeNumber: 1, isAnswer: true)  // "a, b"
/// ```
///
/// How Anki reads a field:
/// * A cloze opens with `{{c`, numbers separated by commas and `::` (`{{c1::`, `{{c1,3::`). Each
///   number is read as Anki's 16-bit one (leading zeros allowed, above 65535 ignored); a cloze
///   needs at least one. An uppercase `C`, a space or a single colon make plain text.
/// * `}}` closes the innermost open cloze; with none open it is plain text. A cloze still open at
///   the end of the field is dropped with everything in it, clozes closed inside it too.
/// * Clozes nest. At most ``maximumOpenClozes`` are open at once: Anki drops an opening beyond
///   that (its marker vanishes; its `}}` then closes the cloze around it). This bounds the
///   recursion of every function here by that depth.
/// * In a cloze's text the first `::` starts the hint, which runs to the next cloze marker; a later
///   run of the cloze's own text with a `::` replaces it. A run of text that starts with
///   `image-occlusion:` is never split.
/// * A cloze whose first run of text starts with `image-occlusion:` is an Image Occlusion shape:
///   it renders as an empty `<div>` with the shape's properties as `data-` attributes, and the
///   clozes inside it are neither rendered nor looked at.
///
/// On the question side an active cloze shows `[hint]` (`[...]` without one) and keeps what it
/// hides, rendered, in its `data-cloze` attribute, encoded as Anki's `htmlescape` crate encodes
/// attributes. The `cloze` filter then strips the markup inside MathJax (`\(…\)`, `\[…\]`), and
/// gives the empty string when no cloze is active.
package enum AnkiCloze {
  /// How many clozes Anki keeps open at once; an opening marker beyond them is dropped.
  package static let maximumOpenClozes = ClozeNumbers.maximumOpenClozes

  /// The least number of UTF-8 bytes of `data-cloze` attributes one rendering may write (it may
  /// always write six times the text's length, which covers every cloze not nested in an active
  /// one). Clozes nested in active clozes of the same number encode what they hide once per
  /// level, which grows the output about threefold per level: ten levels around a megabyte of
  /// text would ask for tens of gigabytes, which Anki would try to write. Past the budget deckport
  /// writes the attribute empty (`data-cloze=""`) instead; the text shown is unchanged.
  package static let minimumAttributeBudget = 16 << 20

  /// What Anki's `{{cloze:Field}}` filter makes of `text` on card `clozeNumber` (the card's
  /// ordinal + 1), on the question side or, with `isAnswer`, the answer side: each cloze as a
  /// `<span>` (active or `cloze-inactive`; Image Occlusion shapes as a `<div>`), the text around
  /// them kept, markup inside MathJax removed. Empty when no cloze of that number is active.
  package static func rendering(_ text: String, clozeNumber: Int, isAnswer: Bool) -> String {
    guard text.containsUTF8Byte(UInt8(ascii: "{")) else { return "" }
    var text = text
    return text.withUTF8 { bytes -> String in
      let nodes = ClozeParser.nodes(in: bytes)
      var renderer = ClozeRenderer(
        bytes: bytes, number: clozeNumber, isAnswer: isAnswer,
        attributeBudget: max(minimumAttributeBudget, bytes.count * 6))
      var output: [UInt8] = []
      output.reserveCapacity(bytes.count + 64)
      for node in nodes {
        switch node {
        case .text(let range): output.append(contentsOf: bytes[range])
        case .cloze(let cloze): renderer.render(cloze, into: &output)
        }
      }
      guard renderer.activeClozeFound else { return "" }
      return strippingMarkupInsideMathJax(String(decoding: output, as: UTF8.self))
    }
  }

  /// What Anki's `{{cloze-only:Field}}` filter makes of `text` on card `clozeNumber`: for each
  /// active cloze, outer ones first, its hint (`...` without one) on the question side or its
  /// text, without markers and unrendered, on the answer side; joined with `", "`.
  package static func renderingOnly(_ text: String, clozeNumber: Int, isAnswer: Bool) -> String {
    guard text.containsUTF8Byte(UInt8(ascii: "{")) else { return "" }
    var text = text
    return text.withUTF8 { bytes -> String in
      var pieces: [String] = []
      func collect(_ nodes: [ClozeNode]) {
        for case .cloze(let cloze) in nodes {
          if cloze.numbers.contains(clozeNumber) {
            if isAnswer {
              var clozed: [UInt8] = []
              cloze.appendText(from: bytes, to: &clozed)
              pieces.append(String(decoding: clozed, as: UTF8.self))
            } else {
              pieces.append(cloze.hint.map { String(decoding: bytes[$0], as: UTF8.self) } ?? "...")
            }
          }
          collect(cloze.nodes)
        }
      }
      collect(ClozeParser.nodes(in: bytes))
      return pieces.joined(separator: ", ")
    }
  }

  /// `html` with the markup inside each MathJax span (`\(…\)` or `\[…\]`, either closing either)
  /// removed as Anki's `strip_html_preserving_entities` removes it (Anki's `MATHJAX` pattern and
  /// `strip_html_inside_mathjax`).
  static func strippingMarkupInsideMathJax(_ html: String) -> String {
    guard html.containsUTF8Byte(UInt8(ascii: "\\")) else { return html }
    let bytes = Array(html.utf8)
    func isDelimiter(at index: Int, closing: Bool) -> Bool {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\") else { return false }
      let next = bytes[index + 1]
      return closing
        ? next == UInt8(ascii: ")") || next == UInt8(ascii: "]")
        : next == UInt8(ascii: "(") || next == UInt8(ascii: "[")
    }
    var result = ""
    var copied = 0
    var index = 0
    while index < bytes.count {
      guard isDelimiter(at: index, closing: false) else {
        index += 1
        continue
      }
      var close = index + 2
      while close < bytes.count, !isDelimiter(at: close, closing: true) { close += 1 }
      // Without a closing delimiter after this opening there is none after a later one either.
      guard close < bytes.count else { break }
      let inner = bytes[(index + 2)..<close]
      if inner.contains(UInt8(ascii: "<")) {
        result += String(decoding: bytes[copied..<(index + 2)], as: UTF8.self)
        result += AnkiFieldText.strippingHTMLPreservingEntities(String(decoding: inner, as: UTF8.self))
        copied = close
      }
      index = close + 2
    }
    if copied == 0 { return html }
    result += String(decoding: bytes[copied...], as: UTF8.self)
    return result
  }

  /// `text` as Anki writes an attribute value (the `htmlescape` crate's `encode_attribute`):
  /// ASCII letters and digits and every character above U+00FF as they are; `"`, `&`, `'`, `<`
  /// and `>` as `&quot;`, `&amp;`, `&#x27;`, `&lt;` and `&gt;`; every other character up to
  /// U+00FF as `&#x` and two uppercase hexadecimal digits.
  static func encodingAttribute(_ text: String) -> String {
    var bytes: [UInt8] = []
    appendEncodingAttribute(Array(text.utf8)[...], to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The number of UTF-8 bytes ``appendEncodingAttribute(_:to:)`` writes for `bytes`.
  static func encodedAttributeLength(_ bytes: ArraySlice<UInt8>) -> Int {
    var length = 0
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte < 0x80 {
        length += isASCIILetterOrDigit(byte) ? 1 : (namedReferences[Int(byte)]?.count ?? 6)
        index += 1
      } else if (byte == 0xC2 || byte == 0xC3) && index + 1 < bytes.endIndex {
        length += 6
        index += 2
      } else {
        length += 1
        index += 1
      }
    }
    return length
  }

  /// Appends `bytes` (UTF-8) encoded as ``encodingAttribute(_:)`` says to `output`.
  static func appendEncodingAttribute(_ bytes: ArraySlice<UInt8>, to output: inout [UInt8]) {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte < 0x80 {
        if isASCIILetterOrDigit(byte) {
          output.append(byte)
        } else if let named = namedReferences[Int(byte)] {
          output.append(contentsOf: named)
        } else {
          appendHexadecimalReference(byte, to: &output)
        }
        index += 1
      } else if (byte == 0xC2 || byte == 0xC3) && index + 1 < bytes.endIndex {
        // A two-byte sequence led by C2 or C3 is a character from U+0080 to U+00FF.
        appendHexadecimalReference((byte & 0x03) << 6 | (bytes[index + 1] & 0x3F), to: &output)
        index += 2
      } else {
        output.append(byte)
        index += 1
      }
    }
  }

  private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }

  private static func appendHexadecimalReference(_ value: UInt8, to output: inout [UInt8]) {
    let digits = Array("0123456789ABCDEF".utf8)
    output.append(contentsOf: [
      UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: "x"), digits[Int(value >> 4)], digits[Int(value & 0x0F)],
      UInt8(ascii: ";"),
    ])
  }

  /// The characters `htmlescape` writes by name (or, for `'`, as a fixed reference), by code.
  private static let namedReferences: [Int: [UInt8]] = [
    0x22: Array("&quot;".utf8), 0x26: Array("&amp;".utf8), 0x27: Array("&#x27;".utf8),
    0x3C: Array("&lt;".utf8), 0x3E: Array("&gt;".utf8),
  ]
}
