import CVectorText
import Testing

@testable import JSONCore

@Suite("JSONBytes: runs of plain string text, found with vector instructions where they exist")
struct JSONBytesTests {
  /// The first byte at or after `start` that ends a run, one byte at a time.
  static func expectedRunEnd(_ bytes: [UInt8], from start: Int) -> Int {
    bytes[start...].firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 } ?? bytes.count
  }

  @Test("every byte that ends a run, at every place of a long run, from several starts")
  func stops() {
    let plain = Array(repeating: UInt8(ascii: "a"), count: 100)
    for stop: UInt8 in [0x22, 0x5C, 0x00, 0x1F, 0x80, 0xC3, 0xFF] {
      for place in 0..<plain.count {
        var bytes = plain
        bytes[place] = stop
        for start in [0, 1, 15, 31, 33, place] where start <= place {
          let found = bytes.withUnsafeBytes { JSONBytes.plainRunEnd($0, from: start) }
          #expect(found == place, "byte \(stop) at \(place), from \(start)")
        }
      }
    }
  }

  @Test("bytes that do not end a run, and runs that reach the end")
  func plainBytes() {
    let plain: [UInt8] = (0x20...0x7E).filter { $0 != 0x22 && $0 != 0x5C }
    for length in [0, 1, 15, 16, 17, 31, 32, 33, 64, 95, 200] {
      let bytes = (0..<length).map { plain[$0 % plain.count] }
      for start in [0, min(3, length), length] {
        let found = bytes.withUnsafeBytes { JSONBytes.plainRunEnd($0, from: start) }
        #expect(found == Self.expectedRunEnd(bytes, from: start) && found == length, "length \(length)")
      }
    }
  }

  #if arch(x86_64)
  @Test("on x86-64 the vector code scans whole blocks and leaves the last few bytes")
  func vectorised() {
    let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
    #expect(bytes.withUnsafeBufferPointer { deckport_json_plain_run_end($0.baseAddress, 0, 100) } == 96)
    #expect(bytes.withUnsafeBufferPointer { deckport_json_plain_run_end($0.baseAddress, 90, 100) } == 90)
  }
  #endif
}
