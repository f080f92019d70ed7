import DeckCore
import Foundation

/// Anki's cloze deletions as its card templates render them: the `{{cloze:Field}}` and
/// `{{cloze-only:Field}}` filters, and the cloze numbers a field holds (the rules of Anki's
/// `rslib/src/cloze.rs` and `rslib/src/image_occlusion/imageocclusion.rs`).
///
/// ```swift
/// AnkiCloze.rendering("{{c1::Paris::city}} is in {{c2::France}}", clozeNumber: 1, isAnswer: false)
/// // <span class="cloze" data-cloze="Paris" data-ordinal="1">[city]</span> is in
/// // <span class="cloze-inactive" data-ordinal="2">France</span>
/// AnkiCloze.renderingOnly("{{c1::a}} {{c1::b::hint}}", clozeNumber: 1, isAnswer: true)  // "a, b"
/// AnkiCloze.numbers(in: "{{c1,2::shared}} {{c3::x {{c4::y}}}}")                         // [1, 2, 3, 4]
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
  package static let maximumOpenClozes = 10

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

  /// The cloze numbers in `text`, as Anki's `cloze_number_in_fields` finds them (the cards a
  /// cloze note gets, and whether a card's front is empty): every number of every cloze that is
  /// closed, with all the clozes around it, except 0. `{{c1,2::…}}` holds 1 and 2.
  package static func numbers(in text: String) -> Set<Int> {
    guard text.containsUTF8Byte(UInt8(ascii: "{")) else { return [] }
    var text = text
    return text.withUTF8 { bytes -> Set<Int> in
      var found: Set<Int> = []
      // The numbers of each open cloze and of the closed clozes inside it: they count only
      // once every cloze around them is closed too.
      var open: [[Int]] = []
      var tokens = ClozeTokens(bytes: bytes)
      while let token = tokens.next() {
        switch token {
        case .opening(let numbers):
          if open.count < maximumOpenClozes { open.append(numbers) }
        case .closing:
          guard let closed = open.popLast() else { continue }
          if open.isEmpty {
            found.formUnion(closed.lazy.filter { $0 != 0 })
          } else {
            open[open.count - 1] += closed
          }
        case .text:
          continue
        }
      }
      return found
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

/// A piece of a field: a run of text (a range of the field's UTF-8 bytes) or a cloze.
enum ClozeNode {
  case text(Range<Int>)
  case cloze(Cloze)
}

/// One cloze of a field, as Anki parses it.
struct Cloze {
  /// The numbers it is written with, without repeats, ascending (0 kept).
  var numbers: [Int]
  /// Its text and the clozes nested in it, in order.
  var nodes: [ClozeNode] = []
  /// Its hint, a range of the field's UTF-8 bytes.
  var hint: Range<Int>? = nil

  /// The `data-ordinal` value: the numbers, separated by commas.
  var ordinalList: String { numbers.map(String.init).joined(separator: ",") }

  /// What follows `image-occlusion:` when the cloze's first piece is text that starts so.
  func imageOcclusion(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
    guard case .text(let range)? = nodes.first,
      ClozeTokens.hasPrefix(ClozeTokens.imageOcclusionPrefix, in: bytes, at: range.lowerBound, end: range.upperBound)
    else { return nil }
    return (range.lowerBound + ClozeTokens.imageOcclusionPrefix.count)..<range.upperBound
  }

  /// Appends the cloze's text with the text of the clozes in it, without markers or hints.
  func appendText(from bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    for node in nodes {
      switch node {
      case .text(let range): output.append(contentsOf: bytes[range])
      case .cloze(let inner): inner.appendText(from: bytes, to: &output)
      }
    }
  }
}

/// The markers and text runs of a field, in order (Anki's cloze `tokenize`).
struct ClozeTokens {
  /// A token: an opening marker with its numbers, a closing marker, or the text between.
  enum Token {
    case opening([Int])
    case closing
    case text(Range<Int>)
  }

  /// The text that starts an Image Occlusion shape in a cloze.
  static let imageOcclusionPrefix = Array("image-occlusion:".utf8)

  /// The field's UTF-8 bytes.
  let bytes: UnsafeBufferPointer<UInt8>
  /// Where the next token starts.
  private(set) var position = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The next token, or nil at the end of the field.
  mutating func next() -> Token? {
    guard position < bytes.count else { return nil }
    if let (numbers, end) = opening(at: position) {
      position = end
      return .opening(numbers)
    }
    if isClosing(at: position) {
      position += 2
      return .closing
    }
    let start = position
    position += 1
    while position < bytes.count {
      let byte = bytes[position]
      if (byte == UInt8(ascii: "{") && opening(at: position) != nil)
        || (byte == UInt8(ascii: "}") && isClosing(at: position))
      {
        break
      }
      position += 1
    }
    return .text(start..<position)
  }

  private func isClosing(at index: Int) -> Bool {
    index + 1 < bytes.count && bytes[index] == UInt8(ascii: "}") && bytes[index + 1] == UInt8(ascii: "}")
  }

  /// The numbers of the opening marker at `index` and the index after it, or nil when none
  /// starts there: `{{c`, digits and commas holding at least one number Anki reads, then `::`.
  private func opening(at index: Int) -> ([Int], Int)? {
    guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: "{"), bytes[index + 1] == UInt8(ascii: "{"),
      bytes[index + 2] == UInt8(ascii: "c")
    else { return nil }
    var numbers: [Int] = []
    var current: Int? = nil
    var cursor = index + 3
    while cursor < bytes.count {
      let byte = bytes[cursor]
      if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        // Anki reads each number as a 16-bit one: a larger one is left out (kept above the
        // limit here, so the multiplication cannot overflow).
        current = min((current ?? 0) * 10 + Int(byte - UInt8(ascii: "0")), Int(UInt16.max) + 1)
      } else if byte == UInt8(ascii: ",") {
        if let number = current, number <= Int(UInt16.max) { numbers.append(number) }
        current = nil
      } else {
        break
      }
      cursor += 1
    }
    if let number = current, number <= Int(UInt16.max) { numbers.append(number) }
    guard !numbers.isEmpty, cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: ":"),
      bytes[cursor + 1] == UInt8(ascii: ":")
    else { return nil }
    return (Array(Set(numbers)).sorted(), cursor + 2)
  }

  /// Whether `bytes[index..<end]` starts with `prefix`.
  static func hasPrefix(_ prefix: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Bool {
    guard end - index >= prefix.count else { return false }
    for offset in prefix.indices where bytes[index + offset] != prefix[offset] { return false }
    return true
  }

  /// Where the first `::` in `bytes[range]` starts, if there is one.
  static func firstDoubleColon(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var index = range.lowerBound
    while index + 1 < range.upperBound {
      if bytes[index] == UInt8(ascii: ":") {
        if bytes[index + 1] == UInt8(ascii: ":") { return index }
      }
      index += 1
    }
    return nil
  }
}

/// Builds a field's clozes from its tokens (Anki's `parse_text_with_clozes`).
enum ClozeParser {
  /// The top-level pieces of the field whose UTF-8 bytes are `bytes`.
  static func nodes(in bytes: UnsafeBufferPointer<UInt8>) -> [ClozeNode] {
    var output: [ClozeNode] = []
    var open: [Cloze] = []
    var tokens = ClozeTokens(bytes: bytes)
    while let token = tokens.next() {
      switch token {
      case .opening(let numbers):
        if open.count < AnkiCloze.maximumOpenClozes { open.append(Cloze(numbers: numbers)) }
      case .text(var range):
        guard !open.isEmpty else {
          output.append(.text(range))
          continue
        }
        let innermost = open.count - 1
        if !ClozeTokens.hasPrefix(
          ClozeTokens.imageOcclusionPrefix, in: bytes, at: range.lowerBound, end: range.upperBound),
          let colons = ClozeTokens.firstDoubleColon(in: bytes, range)
        {
          open[innermost].hint = (colons + 2)..<range.upperBound
          range = range.lowerBound..<colons
        }
        open[innermost].nodes.append(.text(range))
      case .closing:
        guard let closed = open.popLast() else {
          output.append(.text((tokens.position - 2)..<tokens.position))
          continue
        }
        if open.isEmpty {
          output.append(.cloze(closed))
        } else {
          open[open.count - 1].nodes.append(.cloze(closed))
        }
      }
    }
    // Clozes still open are dropped, as Anki drops them.
    return output
  }
}

/// Renders clozes as the `cloze` filter does for one card and side (Anki's `reveal_cloze`).
struct ClozeRenderer {
  /// The field's UTF-8 bytes.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The card's cloze number.
  let number: Int
  /// Whether the answer side is rendered.
  let isAnswer: Bool
  /// How many more bytes of `data-cloze` attributes may be written (``AnkiCloze/minimumAttributeBudget``).
  var attributeBudget: Int
  /// Whether a cloze of the card's number was met (outside Image Occlusion shapes).
  private(set) var activeClozeFound = false

  init(bytes: UnsafeBufferPointer<UInt8>, number: Int, isAnswer: Bool, attributeBudget: Int) {
    self.bytes = bytes
    self.number = number
    self.isAnswer = isAnswer
    self.attributeBudget = attributeBudget
  }

  /// Appends `cloze` rendered to `output`.
  mutating func render(_ cloze: Cloze, into output: inout [UInt8]) {
    let active = cloze.numbers.contains(number)
    if active { activeClozeFound = true }
    if let shape = cloze.imageOcclusion(in: bytes) {
      let kind: String
      if (!isAnswer && active) || cloze.numbers.contains(0) {
        kind = "cloze"
      } else if !active {
        kind = "cloze-inactive"
      } else {
        kind = "cloze-highlight"
      }
      let data = ImageOcclusionShape.dataAttributes(String(decoding: bytes[shape], as: UTF8.self))
      output.append(contentsOf: "<div class=\"\(kind)\" data-ordinal=\"\(cloze.ordinalList)\" \(data)></div>".utf8)
      return
    }
    if active && !isAnswer {
      var hidden: [UInt8] = []
      renderNodes(of: cloze, into: &hidden)
      output.append(contentsOf: "<span class=\"cloze\" data-cloze=\"".utf8)
      let length = AnkiCloze.encodedAttributeLength(hidden[...])
      if length <= attributeBudget {
        attributeBudget -= length
        AnkiCloze.appendEncodingAttribute(hidden[...], to: &output)
      }
      output.append(contentsOf: "\" data-ordinal=\"\(cloze.ordinalList)\">[".utf8)
      if let hint = cloze.hint {
        output.append(contentsOf: bytes[hint])
      } else {
        output.append(contentsOf: "...".utf8)
      }
      output.append(contentsOf: "]</span>".utf8)
    } else {
      let kind = active ? "cloze" : "cloze-inactive"
      output.append(contentsOf: "<span class=\"\(kind)\" data-ordinal=\"\(cloze.ordinalList)\">".utf8)
      renderNodes(of: cloze, into: &output)
      output.append(contentsOf: "</span>".utf8)
    }
  }

  private mutating func renderNodes(of cloze: Cloze, into output: inout [UInt8]) {
    for node in cloze.nodes {
      switch node {
      case .text(let range): output.append(contentsOf: bytes[range])
      case .cloze(let inner): render(inner, into: &output)
      }
    }
  }
}

/// The `data-` attributes of an Image Occlusion shape (Anki's `get_image_cloze_data`), read from
/// the text after `image-occlusion:`, such as `rect:left=.1:top=.2:width=.3:height=.4:oi=1`.
enum ImageOcclusionShape {
  /// The shapes whose name becomes `data-shape`.
  static let knownShapes: Set<String> = ["rect", "ellipse", "polygon", "text"]

  /// The attributes, each followed by a space: `data-shape` for a known shape, then one for each
  /// property Anki knows, in the text's order (`oi` as `data-occludeInactive`, `fs` as
  /// `data-font-size`; `text` attribute-encoded, the others as written). Empty values are left
  /// out, and `0` for width, height, rx, ry and scale. Empty without a `:` after the shape.
  static func dataAttributes(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return "" }
    var result = ""
    let shape = String(decoding: bytes[..<colon], as: UTF8.self)
    if knownShapes.contains(shape) { result += "data-shape=\"\(shape)\" " }
    for (name, value) in properties(bytes[colon...]) {
      switch name {
      case "left", "top", "angle", "fill":
        if !value.isEmpty { result += "data-\(name)=\"\(value)\" " }
      case "width", "height", "rx", "ry", "scale":
        if !value.isEmpty && value != "0" { result += "data-\(name)=\"\(value)\" " }
      case "points":
        // Each space-separated piece with a comma is a point; the others are left out.
        let points = value.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
          .filter { $0.contains(UInt8(ascii: ",")) }
          .map { String(decoding: $0, as: UTF8.self) }
        if !points.isEmpty { result += "data-points=\"\(points.joined(separator: " "))\" " }
      case "oi":
        if !value.isEmpty { result += "data-occludeInactive=\"\(value)\" " }
      case "text":
        if !value.isEmpty { result += "data-text=\"\(AnkiCloze.encodingAttribute(value))\" " }
      case "fs":
        if !value.isEmpty { result += "data-font-size=\"\(value)\" " }
      default:
        break
      }
    }
    return result
  }

  /// The `:name=value` properties at the start of `bytes` (UTF-8), read as Anki reads them: a
  /// name is everything up to the next `=` (at least one byte); a value runs to the next `:` or
  /// the end, with `\:` and `\\` standing for `:` and `\`. Reading stops at the first property
  /// that does not parse: a value that is empty but not at the end, another character after a
  /// `\`, or a `\` at the end.
  static func properties(_ bytes: ArraySlice<UInt8>) -> [(name: String, value: String)] {
    var properties: [(name: String, value: String)] = []
    var index = bytes.startIndex
    while index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") {
      let nameStart = index + 1
      guard let equals = bytes[nameStart...].firstIndex(of: UInt8(ascii: "=")), equals > nameStart else { break }
      let valueStart = equals + 1
      var cursor = valueStart
      var value: [UInt8] = []
      var parsed = true
      while cursor < bytes.endIndex {
        let byte = bytes[cursor]
        if byte == UInt8(ascii: ":") {
          // A value may be empty only at the end of the text.
          if cursor == valueStart { parsed = false }
          break
        }
        if byte == UInt8(ascii: "\\") {
          guard cursor + 1 < bytes.endIndex,
            bytes[cursor + 1] == UInt8(ascii: ":") || bytes[cursor + 1] == UInt8(ascii: "\\")
          else {
            parsed = false
            break
          }
          value.append(bytes[cursor + 1])
          cursor += 2
        } else {
          value.append(byte)
          cursor += 1
        }
      }
      guard parsed else { break }
      properties.append(
        (String(decoding: bytes[nameStart..<equals], as: UTF8.self), String(decoding: value, as: UTF8.self)))
      index = cursor
    }
    return properties
  }
}
