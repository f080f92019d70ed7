/// The markers and text runs of a field, in order (Anki's cloze `tokenize`).
package struct ClozeTokens {
  /// A token: an opening marker with its numbers, a closing marker, or the text between.
  package enum Token {
    case opening([Int])
    case closing
    case text(Range<Int>)
  }

  /// The text that starts an Image Occlusion shape in a cloze.
  package static let imageOcclusionPrefix = Array("image-occlusion:".utf8)

  /// The field's UTF-8 bytes.
  package let bytes: UnsafeBufferPointer<UInt8>
  /// Where the next token starts.
  package private(set) var position = 0

  package init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The next token, or nil at the end of the field.
  package mutating func next() -> Token? {
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
  package static func hasPrefix(_ prefix: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int)
    -> Bool
  {
    guard end - index >= prefix.count else { return false }
    for offset in prefix.indices where bytes[index + offset] != prefix[offset] { return false }
    return true
  }

  /// Where the first `::` in `bytes[range]` starts, if there is one.
  package static func firstDoubleColon(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
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
