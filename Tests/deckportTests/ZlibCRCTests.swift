#if os(Linux)
import CZlib
import CZlibCRC
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// The `deckport` executable answers libzip's calls of zlib's `crc32` with libdeflate
/// (`Sources/CZlibCRC`): the same values as zlib's own, and libzip really calls it. Linux only:
/// the interposition is the ELF dynamic linker's (on Apple systems libzip keeps zlib's).
@Suite("deckport: libzip's CRC-32 taken by libdeflate")
struct ZlibCRCTests {
  typealias ZlibCRC32 = @convention(c) (UInt, UnsafePointer<UInt8>?, UInt32) -> UInt

  /// zlib's own `crc32`: the definition after this process's (which is CZlibCRC's).
  static func zlibOwn() throws -> ZlibCRC32 {
    let next = UnsafeMutableRawPointer(bitPattern: -1)  // RTLD_NEXT
    let symbol = try #require(dlsym(next, "crc32"), "zlib's crc32 is loaded")
    return unsafeBitCast(symbol, to: ZlibCRC32.self)
  }

  @Test("this process's crc32 is CZlibCRC's, and gives zlib's values")
  func sameValuesAsZlib() throws {
    #expect(deckport_zlib_crc32_is_libdeflate() == 1)
    let zlib = try Self.zlibOwn()
    let ours: ZlibCRC32 = { crc32($0, $1, $2) }
    #expect(ours(0x1234, nil, 10) == 0)
    #expect(zlib(0x1234, nil, 10) == 0)
    var generator = SystemRandomNumberGenerator()
    for count in [0, 1, 3, 15, 16, 17, 63, 64, 65, 255, 4096, 100_003] {
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let start = UInt(UInt32.random(in: 0...UInt32.max, using: &generator))
      bytes.withUnsafeBufferPointer { buffer in
        let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)
        #expect(ours(start, base, UInt32(count)) == zlib(start, base, UInt32(count)), "length \(count)")
        #expect(crc32_z(start, base, count) == zlib(start, base, UInt32(count)), "crc32_z, length \(count)")
      }
    }
  }

  @Test("the deckport command's libzip binds crc32 to the executable's (the dynamic linker says so)")
  func libzipBindsToIt() throws {
    let scratch = try TemporaryDirectory()
    // The dynamic linker writes its report to `bindings.<pid>`.
    let run = try CommandRun.deckport(
      ["convert", Fixtures.path("anki/latest_sched.apkg"), scratch.path(for: "out.apkg"), "--to", "apkg"],
      environment: ["LD_DEBUG": "bindings", "LD_DEBUG_OUTPUT": scratch.path(for: "bindings")])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let reports = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("bindings.") }
    let report = try reports.map { try String(contentsOfFile: scratch.path(for: $0), encoding: .utf8) }.joined()
    let bindings = report.split(separator: "\n").filter { $0.contains("normal symbol `crc32'") }
    #expect(!bindings.isEmpty)
    #expect(bindings.allSatisfy { $0.contains("libzip") && $0.contains("/deckport [0]: normal symbol `crc32'") })
  }
}
#endif
