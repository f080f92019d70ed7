import DeckCore
import DeckIO
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Media bytes kept as base64 text in a range of a JSON file, decoded chunk by chunk when read,
/// so reading a deck document never holds its media in memory.
struct Base64FileRangeSource: MediaSource {
  let path: String
  let offset: Int
  let length: Int
  /// Where the text is, for errors (`media[3].data`).
  let location: SourceLocation

  func openReader() throws -> any MediaByteReader {
    try Reader(source: self)
  }

  /// Reads the text with `pread` into one reused buffer and decodes it into another.
  private final class Reader: MediaByteReader {
    private let source: Base64FileRangeSource
    private let descriptor: Int32
    /// The file offset of the next text to read, and how much is left.
    private var position: Int
    private var remaining: Int
    private let text: UnsafeMutableRawBufferPointer
    /// Text read but not decoded yet (fewer than four characters), at the start of `text`.
    private var carried = 0
    private let decoded: UnsafeMutableRawBufferPointer
    private var decodedStart = 0
    private var decodedEnd = 0
    private static let chunk = 1 << 16

    init(source: Base64FileRangeSource) throws {
      self.source = source
      descriptor = open(source.path, O_RDONLY)
      guard descriptor >= 0 else {
        throw DeckError(.unreadableFile, at: source.location, "cannot open the file again to read the media data")
      }
      position = source.offset
      remaining = source.length
      text = .allocate(byteCount: Self.chunk + 4, alignment: 16)
      decoded = .allocate(byteCount: (Self.chunk + 4) / 4 * 3, alignment: 16)
    }

    deinit {
      close(descriptor)
      text.deallocate()
      decoded.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      while decodedStart == decodedEnd {
        guard try refill() else { return 0 }
      }
      let count = min(buffer.count, decodedEnd - decodedStart)
      guard count > 0, let target = buffer.baseAddress, let bytes = decoded.baseAddress else { return 0 }
      target.copyMemory(from: bytes + decodedStart, byteCount: count)
      decodedStart += count
      return count
    }

    /// Decodes the next chunk of text; false at the end.
    private func refill() throws -> Bool {
      guard remaining > 0 else {
        guard carried == 0 else {
          throw DeckError(.corrupt, at: source.location, "not valid base64 (its length is not a multiple of 4)")
        }
        return false
      }
      let wanted = min(Self.chunk, remaining)
      guard let textStart = text.baseAddress else { return false }
      let count = pread(descriptor, textStart + carried, wanted, off_t(position))
      guard count > 0 else {
        throw DeckError(.corrupt, at: source.location, "the file ended inside the media data")
      }
      position += count
      remaining -= count
      let available = carried + count
      let usable = available - available % 4
      guard
        let produced = Base64.decode(
          UnsafeRawBufferPointer(rebasing: text[0..<usable]), isLast: remaining == 0, into: decoded)
      else {
        throw DeckError(.corrupt, at: source.location, "not valid base64")
      }
      // Keep the characters of an incomplete group for the next chunk.
      carried = available - usable
      if carried > 0 {
        textStart.copyMemory(from: textStart + usable, byteCount: carried)
      }
      decodedStart = 0
      decodedEnd = produced
      return true
    }
  }
}

/// Standard base64 (RFC 4648, `A–Z a–z 0–9 + /`, `=` padding), decoded by table: no white space,
/// no other characters, padding only in the last group of the whole text.
enum Base64 {
  /// Four tables of 256 entries, one per place in a group of four characters: each character's
  /// six bits already shifted to their place in the group's 24 bits, so that a group decodes
  /// with four lookups and three ORs. A character that is not base64 sets bit 31 in every table.
  private static let tables: [UInt32] = {
    let invalid: UInt32 = 1 << 31
    var tables = [UInt32](repeating: invalid, count: 4 * 256)
    for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
      for place in 0..<4 {
        tables[place * 256 + Int(character)] = UInt32(value) << (18 - 6 * place)
      }
    }
    return tables
  }()

  /// Decodes `text` (a multiple of four characters) into `output` (room for three bytes per
  /// four characters) and returns the number of bytes, or nil when it is not base64. Padding
  /// is accepted only when `isLast` (the text ends the whole encoding).
  static func decode(_ text: UnsafeRawBufferPointer, isLast: Bool, into output: UnsafeMutableRawBufferPointer) -> Int? {
    guard text.count % 4 == 0 else { return nil }
    guard let input = text.baseAddress?.assumingMemoryBound(to: UInt8.self), let out = output.baseAddress
    else { return 0 }
    let groups = text.count / 4
    guard output.count >= groups * 3 else { return nil }
    return tables.withUnsafeBufferPointer { tables -> Int? in
      guard let table = tables.baseAddress else { return nil }
      var written = 0
      for group in 0..<groups {
        let at = input + group &* 4
        let value =
          table[Int(at[0])] | table[256 &+ Int(at[1])] | table[512 &+ Int(at[2])] | table[768 &+ Int(at[3])]
        if value & (1 << 31) == 0 {
          out.storeBytes(of: UInt8(truncatingIfNeeded: value &>> 16), toByteOffset: written, as: UInt8.self)
          out.storeBytes(of: UInt8(truncatingIfNeeded: value &>> 8), toByteOffset: written &+ 1, as: UInt8.self)
          out.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: written &+ 2, as: UInt8.self)
          written &+= 3
          continue
        }
        // Padding, which only the very last group may have: "xx==" or "xxx=".
        guard isLast, group == groups - 1, at[3] == UInt8(ascii: "=") else { return nil }
        let head = table[Int(at[0])] | table[256 &+ Int(at[1])]
        guard head & (1 << 31) == 0 else { return nil }
        out.storeBytes(of: UInt8(truncatingIfNeeded: head &>> 16), toByteOffset: written, as: UInt8.self)
        written &+= 1
        if at[2] != UInt8(ascii: "=") {
          let third = head | table[512 &+ Int(at[2])]
          guard third & (1 << 31) == 0 else { return nil }
          out.storeBytes(of: UInt8(truncatingIfNeeded: third &>> 8), toByteOffset: written, as: UInt8.self)
          written &+= 1
        }
      }
      return written
    }
  }
}
