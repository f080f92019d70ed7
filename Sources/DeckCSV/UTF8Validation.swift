import DeckCore
import JSONCore

/// Checks bytes for well-formed UTF-8 (no overlong forms, no surrogates, nothing above
/// U+10FFFF) and finds the first byte that is not.
enum UTF8Validation {
  /// The offset of the first byte that does not begin or continue a well-formed character, or
  /// nil when all of `bytes` is valid UTF-8.
  static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let raw = UnsafeRawBufferPointer(bytes)
    var index = 0
    while index < raw.count {
      if raw[index] < 0x80 {
        index += 1
        continue
      }
      let length = UTF8Sequence.length(in: raw, at: index)
      guard length > 0 else { return index }
      index += length
    }
    return nil
  }

  /// The offset of the first invalid byte in `bytes`, or nil when they are valid UTF-8.
  static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0) }
  }
}
