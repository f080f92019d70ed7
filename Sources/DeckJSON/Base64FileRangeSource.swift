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
      if decodedStart == decodedEnd && buffer.count >= decoded.count {
        // Nothing left over and room for a whole chunk: decoded straight into the caller's buffer.
        while true {
          guard let produced = try refill(into: buffer) else { return 0 }
          if produced > 0 { return produced }
        }
      }
      while decodedStart == decodedEnd {
        guard let produced = try refill(into: decoded) else { return 0 }
        decodedStart = 0
        decodedEnd = produced
      }
      let count = min(buffer.count, decodedEnd - decodedStart)
      guard count > 0, let target = buffer.baseAddress, let bytes = decoded.baseAddress else { return 0 }
      target.copyMemory(from: bytes + decodedStart, byteCount: count)
      decodedStart += count
      return count
    }

    /// Decodes the next chunk of text into `target` (room for a whole chunk) and returns how
    /// many bytes it made (0 when the chunk was too short to end a group); nil at the end.
    private func refill(into target: UnsafeMutableRawBufferPointer) throws -> Int? {
      guard remaining > 0 else {
        guard carried == 0 else {
          throw DeckError(.corrupt, at: source.location, "not valid base64 (its length is not a multiple of 4)")
        }
        return nil
      }
      let wanted = min(Self.chunk, remaining)
      guard let textStart = text.baseAddress else { return nil }
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
          UnsafeRawBufferPointer(rebasing: text[0..<usable]), isLast: remaining == 0, into: target)
      else {
        throw DeckError(.corrupt, at: source.location, "not valid base64")
      }
      // Keep the characters of an incomplete group for the next chunk.
      carried = available - usable
      if carried > 0 {
        textStart.copyMemory(from: textStart + usable, byteCount: carried)
      }
      return produced
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
    guard let input = text.baseAddress, let out = output.baseAddress else { return 0 }
    let groups = text.count / 4
    guard output.count >= groups * 3 else { return nil }
    return tables.withUnsafeBufferPointer { tables -> Int? in
      guard let table = tables.baseAddress else { return nil }
      /// The 24 bits of the group at `offset` (bit 31 set when a character is not base64).
      func group(at offset: Int) -> UInt32 {
        let characters = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        return table[Int(characters & 0xFF)] | table[256 &+ Int((characters &>> 8) & 0xFF)]
          | table[512 &+ Int((characters &>> 16) & 0xFF)] | table[768 &+ Int(characters &>> 24)]
      }
      var written = 0
      // Every group but the last: its three bytes stored as four (the fourth is overwritten
      // by the next group).
      for index in 0..<max(groups - 1, 0) {
        let value = group(at: index &* 4)
        guard value & (1 << 31) == 0 else { return nil }
        out.storeBytes(of: (value &<< 8).bigEndian, toByteOffset: written, as: UInt32.self)
        written &+= 3
      }
      guard groups > 0 else { return 0 }
      // The last group, which may end with padding ("xx==" or "xxx=") when it ends the text.
      let last = (groups - 1) * 4
      var value = group(at: last)
      var count = 3
      if value & (1 << 31) != 0 {
        func character(_ place: Int) -> Int { Int(input.load(fromByteOffset: last + place, as: UInt8.self)) }
        let pad = Int(UInt8(ascii: "="))
        guard isLast, character(3) == pad else { return nil }
        value =
          table[character(0)] | table[256 &+ character(1)] | (character(2) == pad ? 0 : table[512 &+ character(2)])
        guard value & (1 << 31) == 0 else { return nil }
        count = character(2) == pad ? 1 : 2
      }
      for place in 0..<count {
        out.storeBytes(
          of: UInt8(truncatingIfNeeded: value &>> (16 - 8 * place)), toByteOffset: written &+ place, as: UInt8.self)
      }
      return written + count
    }
  }
}
