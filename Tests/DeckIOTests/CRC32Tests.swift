import DeckIO
import Testing

@Suite("CRC32")
struct CRC32Tests {
  /// The CRC-32 bit by bit, as ISO 3309 defines it: a reference that shares no code with libdeflate's.
  private static func bitwise(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  @Test("published check values")
  func checkValues() {
    #expect(CRC32.of([]) == 0)
    #expect(CRC32.of(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.of(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
  }

  @Test("equal to the bitwise definition at every length around the vector code's block sizes")
  func matchesDefinition() {
    var generator = SystemRandomNumberGenerator()
    for count in [1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 65, 127, 128, 129, 255, 256, 1000, 4096, 65_537] {
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      #expect(CRC32.of(bytes) == Self.bitwise(bytes), "length \(count)")
    }
  }

  @Test("extending and combining give the CRC-32 of the bytes one after the other")
  func extendAndCombine() {
    let first = Array("12345".utf8)
    let second = Array("6789".utf8)
    let extended = second.withUnsafeBytes { CRC32.update(CRC32.of(first), $0) }
    #expect(extended == 0xCBF4_3926)
    #expect(CRC32.combine(CRC32.of(first), CRC32.of(second), secondCount: 4) == 0xCBF4_3926)
    let empty: [UInt8] = []
    #expect(empty.withUnsafeBytes { CRC32.update(0x1234_5678, $0) } == 0x1234_5678)
  }
}
