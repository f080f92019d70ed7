/// Decoding of HTML character references (`&amp;`, `&#233;`, `&#x1F389;`) in field text, one
/// by one, for deckport's own plain text (app storage): a reference Anki's decoder would
/// reject does not keep the others from being decoded.
package enum HTMLEntities {
  /// `text` with its character references decoded; what is not a reference is left as it is.
  /// The references are those of ``HTMLCharacterReferences`` (HTML 4's names, decimal and
  /// hexadecimal), plus HTML 5's `&apos;` and an uppercase `&#X`, which other editors write.
  package static func decode(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "&"), let (scalar, end) = reference(in: bytes, at: index) else {
        output.append(bytes[index])
        index += 1
        continue
      }
      output.append(contentsOf: String(Character(scalar)).utf8)
      index = end
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The reference whose `&` is at `ampersand`, as ``HTMLCharacterReferences`` reads it, or
  /// `&apos;`, or `&#X` and hex digits.
  private static func reference(in bytes: [UInt8], at ampersand: Int) -> (Unicode.Scalar, Int)? {
    if let found = HTMLCharacterReferences.reference(in: bytes, at: ampersand) { return found }
    if bytes[ampersand...].starts(with: apostrophe) { return ("'", ampersand + apostrophe.count) }
    guard ampersand + 2 < bytes.count, bytes[ampersand + 1] == UInt8(ascii: "#"),
      bytes[ampersand + 2] == UInt8(ascii: "X")
    else { return nil }
    var lowercased = Array(bytes[ampersand..<min(bytes.count, ampersand + 12)])
    lowercased[2] = UInt8(ascii: "x")
    return HTMLCharacterReferences.reference(in: lowercased, at: 0).map { ($0.0, ampersand + $0.1) }
  }

  private static let apostrophe = Array("&apos;".utf8)
}
