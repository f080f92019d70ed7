import Foundation
import Testing

@testable import DeckAppStorage

/// Data is hashed whole, so pictures of one size and one header (one camera's, one encoder's) do
/// not all fall into one bucket of a record index or of the base64 memo.
@Suite("App values: data hashed whole")
struct AppValueHashTests {
  /// `count` pictures of 4,096 bytes that share a 512-byte header and differ only after it.
  private static func pictures(_ count: Int) -> [Data] {
    let header = Data((0..<512).map { UInt8($0 % 251) })
    return (0..<count).map { number in
      var bytes = header + Data(repeating: 0, count: 4096 - 512)
      withUnsafeBytes(of: UInt32(number).littleEndian) { bytes.replaceSubrange(2000..<2004, with: $0) }
      return bytes
    }
  }

  @Test("pictures that differ only after their header hash apart")
  func differentBytesHashApart() {
    let values = Self.pictures(1000).map(AppValue.data)
    #expect(Set(values.map(\.hashValue)).count == 1000)
    #expect(Set(values).count == 1000)
  }

  @Test("the same bytes hash alike, however they are held")
  func sameBytesHashAlike() {
    let picture = Self.pictures(1)[0]
    let copy = Data(Array(picture))
    let slice = (Data([9, 9]) + picture).dropFirst(2)
    #expect(AppValue.data(picture).hashValue == AppValue.data(copy).hashValue)
    #expect(AppValue.data(picture).hashValue == AppValue.data(slice).hashValue)
    #expect(AppValue.data(picture) == AppValue.data(slice))
  }
}
