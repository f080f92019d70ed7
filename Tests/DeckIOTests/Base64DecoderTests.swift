import CVectorText
import DeckIO
import Foundation
import Testing

@Suite("Base64 decoding")
struct Base64DecoderTests {
  static func decode(_ text: String, canonical: Bool = false) -> Data? {
    let bytes = Array(text.utf8)
    var output = [UInt8](repeating: 0, count: bytes.count / 4 * 3 + 3)
    let count = bytes.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { Base64Decoder.decode(input, isLast: true, canonical: canonical, into: $0) }
    }
    return count.map { Data(output[0..<$0]) }
  }

  @Test func sameAsFoundation() {
    var state: UInt64 = 42
    for length in 0..<200 {
      var bytes: [UInt8] = []
      for _ in 0..<length {
        state = state &* 6_364_136_223_846_793_005 &+ 1
        bytes.append(UInt8(truncatingIfNeeded: state >> 33))
      }
      let text = Data(bytes).base64EncodedString()
      #expect(Self.decode(text) == Data(bytes), "length \(length)")
    }
    for bad in ["@@@@", "QQ=Q", "Q===", "QQ==QQ==", "QUJD\n", "QUJ"] {
      #expect(Self.decode(bad) == nil || Data(base64Encoded: bad) != nil, "\(bad)")
    }
  }

  /// The vector code decodes whole blocks of 32 characters: every byte value at several places
  /// of a block (the last one, where `=` is padding, among them), as Foundation does.
  @Test func blocksSameAsFoundation() {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    let base = Array(String(repeating: "QUJD", count: 24).utf8)  // 96 characters, three blocks
    for place in [0, 5, 31, 32, 47, 63, 64, 95] {
      for value in UInt8.min...UInt8.max {
        var text = base
        text[place] = value
        let string = String(decoding: text, as: UTF8.self)
        #expect(Self.decode(string) == Data(base64Encoded: string), "byte \(value) at \(place)")
        if alphabet.contains(value) { #expect(Self.decode(string) != nil) }
      }
    }
    #if arch(x86_64)
    // Every x86-64 processor this runs on has SSSE3 at least: the blocks are the vector code's.
    var output = [UInt8](repeating: 0, count: 96 / 4 * 3 + 4)
    let vectorised = base.withUnsafeBufferPointer { text in
      output.withUnsafeMutableBufferPointer {
        deckport_base64_decode_blocks(text.baseAddress, text.count, $0.baseAddress)
      }
    }
    #expect(vectorised == 96)
    #expect(Data(output[0..<72]) == Data(base64Encoded: String(decoding: base, as: UTF8.self)))
    #endif
    var state: UInt64 = 7
    for length in [24, 48, 72, 1_000, 65_536, 100_003] {
      var bytes: [UInt8] = []
      for _ in 0..<length {
        state = state &* 6_364_136_223_846_793_005 &+ 1
        bytes.append(UInt8(truncatingIfNeeded: state >> 33))
      }
      #expect(Self.decode(Data(bytes).base64EncodedString()) == Data(bytes), "length \(length)")
    }
  }

  /// Canonical decoding refuses a padded group whose unused bits are not zero, which
  /// `Data.base64EncodedString()` never writes, and takes everything it does write.
  @Test func canonical() {
    #expect(Self.decode("QR==") == Data([0x41]))
    #expect(Self.decode("QR==", canonical: true) == nil)
    #expect(Self.decode("QUI=", canonical: true) == Data([0x41, 0x42]))
    #expect(Self.decode("QUJ=", canonical: true) == nil)
    #expect(Self.decode("QQ==", canonical: true) == Data([0x41]))
    for length in 0..<64 {
      let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 255) })
      #expect(Self.decode(bytes.base64EncodedString(), canonical: true) == bytes, "length \(length)")
    }
    // Every last character of a "xx==" and "xxx=" group: canonical exactly when Foundation's
    // encoding of the bytes gives the text back.
    for character in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
      for text in ["Q\(character)==", "QU\(character)="] {
        let isCanonical = Data(base64Encoded: text).map { $0.base64EncodedString() == text } ?? false
        #expect((Self.decode(text, canonical: true) != nil) == isCanonical, "\(text)")
      }
    }
  }
}
