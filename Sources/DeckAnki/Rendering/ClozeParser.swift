import DeckCore

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
