import DeckIO
import Foundation
import Testing

@Suite("Base64Encoder: streaming base64, the text Foundation gives")
struct Base64EncoderTests {
  /// The text of `data` fed to one encoder in chunks of the `chunkSizes`, used in turn.
  static func encode(_ data: Data, chunkSizes: [Int]) throws -> String {
    var encoder = Base64Encoder()
    var text: [UInt8] = []
    var offset = 0
    var turn = 0
    try data.withUnsafeBytes { bytes in
      while offset < bytes.count {
        let count = min(chunkSizes[turn % chunkSizes.count], bytes.count - offset)
        try encoder.encode(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])) {
          text.append(contentsOf: $0)
        }
        offset += count
        turn += 1
      }
    }
    try encoder.finish { text.append(contentsOf: $0) }
    return String(decoding: text, as: UTF8.self)
  }

  @Test(
    "every size and chunking gives Foundation's text",
    arguments: [0, 1, 2, 3, 4, 5, 6, 7, 63, 64, 65, 49_151, 49_152, 49_153, 200_001])
  func matchesFoundation(size: Int) throws {
    let data = Shell.randomBytes(size, seed: UInt64(size) + 1)
    let expected = data.base64EncodedString()
    for chunks in [[1 << 20], [1], [2], [3], [1, 2], [5, 7, 11], [65_536], [49_152, 1]] {
      #expect(try Self.encode(data, chunkSizes: chunks) == expected, "chunks \(chunks)")
    }
  }

  @Test("after finish the encoder starts a new text")
  func startsAgain() throws {
    var encoder = Base64Encoder()
    var text: [UInt8] = []
    for word in ["a", "bc", "def"] {
      try Array(word.utf8).withUnsafeBytes { try encoder.encode($0) { text.append(contentsOf: $0) } }
      try encoder.finish { text.append(contentsOf: $0) }
      text.append(UInt8(ascii: "|"))
    }
    #expect(String(decoding: text, as: UTF8.self) == "YQ==|YmM=|ZGVm|")
  }
}
