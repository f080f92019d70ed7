import DeckCore
import Foundation

/// A protobuf wire-format decoder: walks the fields of one message.
///
/// ```swift
/// var reader = ProtobufReader(bytes, location: location)
/// while let field = try reader.nextField() {
///   switch (field.number, field.wireType) {
///   case (1, .lengthDelimited): name = try reader.readString()
///   default: try reader.skip(field.wireType)
///   }
/// }
/// ```
///
/// After ``nextField()``, read the value with the method matching its wire type, or
/// ``skip(_:)`` it. Errors are ``DeckError/Kind/corrupt`` at `location.offset(n)`, where `n` is
/// the 0-based offset in this message's bytes of the key or value that is damaged.
package struct ProtobufReader {
  private let bytes: [UInt8]
  private let location: SourceLocation
  /// The offset of the next unread byte.
  package private(set) var position = 0
  /// The number of the field most recently returned by ``nextField()``, for errors.
  private var currentField = 0

  /// Creates a reader over the message `data`; errors name `location`.
  package init(_ data: Data, location: SourceLocation) {
    self.bytes = [UInt8](data)
    self.location = location
  }

  /// Creates a reader over the message `bytes`; errors name `location`.
  package init(_ bytes: [UInt8], location: SourceLocation) {
    self.bytes = bytes
    self.location = location
  }

  /// Whether every byte has been read.
  package var isAtEnd: Bool { position >= bytes.count }

  /// The next field's number and wire type, or nil at the end of the message.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` `protobuf: invalid varint` for a damaged key, or an
  ///   invalid field number or wire type.
  package mutating func nextField() throws -> (number: Int, wireType: ProtobufWireType)? {
    guard !isAtEnd else { return nil }
    let start = position
    let key = try readRawVarint()
    guard let wireType = ProtobufWireType(rawValue: UInt8(key & 7)) else {
      throw error(at: start, "protobuf: invalid wire type \(key & 7) for field \(key >> 3)")
    }
    let number = key >> 3
    guard number >= 1, number <= 0x1FFF_FFFF else {
      throw error(at: start, "protobuf: invalid field number \(number)")
    }
    currentField = Int(number)
    return (Int(number), wireType)
  }

  /// A varint value (uint64, or the raw bits of the other varint types).
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` `protobuf: invalid varint` when it is unterminated or
  ///   longer than ten bytes.
  package mutating func readVarint() throws -> UInt64 {
    try readRawVarint()
  }

  /// An int64 (or int32, enum) varint.
  package mutating func readInt64() throws -> Int64 {
    Int64(bitPattern: try readRawVarint())
  }

  /// An int32 or enum varint (higher bits are dropped, as protobuf specifies).
  package mutating func readInt32() throws -> Int32 {
    Int32(truncatingIfNeeded: try readRawVarint())
  }

  /// A uint32 varint (higher bits are dropped, as protobuf specifies).
  package mutating func readUInt32() throws -> UInt32 {
    UInt32(truncatingIfNeeded: try readRawVarint())
  }

  /// A bool varint (any non-zero value is true).
  package mutating func readBool() throws -> Bool {
    try readRawVarint() != 0
  }

  /// A length-delimited value (bytes, or a nested message to decode with a new reader).
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` `protobuf: field N runs past the end of the message
  ///   (buffer underflow)`.
  package mutating func readLengthDelimited() throws -> Data {
    let range = try lengthDelimitedRange()
    return Data(bytes[range])
  }

  /// A string value.
  ///
  /// - Throws: as ``readLengthDelimited()``, and ``DeckError/Kind/corrupt`` when it is not
  ///   valid UTF-8.
  package mutating func readString() throws -> String {
    let start = position
    let range = try lengthDelimitedRange()
    guard let text = String(validating: bytes[range], as: UTF8.self) else {
      throw error(at: start, "protobuf: field \(currentField) is not valid UTF-8 text")
    }
    return text
  }

  /// A float (fixed32) value.
  package mutating func readFloat() throws -> Float {
    Float(bitPattern: try readFixed32())
  }

  /// A double (fixed64) value.
  package mutating func readDouble() throws -> Double {
    Double(bitPattern: try readFixed64())
  }

  /// A fixed32 value.
  package mutating func readFixed32() throws -> UInt32 {
    let start = try take(4)
    var value: UInt32 = 0
    for index in 0..<4 { value |= UInt32(bytes[start + index]) << (8 * UInt32(index)) }
    return value
  }

  /// A fixed64 value.
  package mutating func readFixed64() throws -> UInt64 {
    let start = try take(8)
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(bytes[start + index]) << (8 * UInt64(index)) }
    return value
  }

  /// A packed repeated float field: a length-delimited run of fixed32 values.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` when the length is not a multiple of 4.
  package mutating func readPackedFloats() throws -> [Float] {
    let start = position
    let range = try lengthDelimitedRange()
    guard range.count % 4 == 0 else {
      throw error(
        at: start,
        "protobuf: packed floats of field \(currentField) have a length of \(range.count) bytes, not a multiple of 4")
    }
    var floats: [Float] = []
    floats.reserveCapacity(range.count / 4)
    var index = range.lowerBound
    while index < range.upperBound {
      var bits: UInt32 = 0
      for byte in 0..<4 { bits |= UInt32(bytes[index + byte]) << (8 * UInt32(byte)) }
      floats.append(Float(bitPattern: bits))
      index += 4
    }
    return floats
  }

  /// Skips the value of the field just returned by ``nextField()``, given its wire type.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` when the value runs past the end, or a group is
  ///   not closed.
  package mutating func skip(_ wireType: ProtobufWireType) throws {
    switch wireType {
    case .varint: _ = try readRawVarint()
    case .fixed64: _ = try take(8)
    case .fixed32: _ = try take(4)
    case .lengthDelimited: _ = try lengthDelimitedRange()
    case .startGroup:
      let group = currentField
      let start = position
      while true {
        guard let field = try nextField() else {
          throw error(at: start, "protobuf: group \(group) is not closed (buffer underflow)")
        }
        if field.wireType == .endGroup {
          guard field.number == group else {
            throw error(at: position, "protobuf: group \(group) is closed as group \(field.number)")
          }
          currentField = group
          return
        }
        try skip(field.wireType)
      }
    case .endGroup:
      throw error(at: position, "protobuf: unexpected end of group \(currentField)")
    }
  }

  // MARK: Internals

  /// Reads a varint of at most ten bytes whose last byte holds no more than the 64th bit.
  private mutating func readRawVarint() throws -> UInt64 {
    let start = position
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      if shift == 63 && byte > 1 { break }
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
      if shift > 63 { break }
    }
    position = start
    throw error(at: start, "protobuf: invalid varint")
  }

  /// Reads a length and returns the range of that many following bytes.
  private mutating func lengthDelimitedRange() throws -> Range<Int> {
    let start = position
    let length = try readRawVarint()
    guard length <= UInt64(bytes.count - position) else {
      position = start
      throw error(at: start, "protobuf: field \(currentField) runs past the end of the message (buffer underflow)")
    }
    let range = position..<(position + Int(length))
    position = range.upperBound
    return range
  }

  /// Consumes `count` bytes and returns the offset of the first.
  private mutating func take(_ count: Int) throws -> Int {
    guard bytes.count - position >= count else {
      throw error(at: position, "protobuf: field \(currentField) runs past the end of the message (buffer underflow)")
    }
    defer { position += count }
    return position
  }

  private func error(at offset: Int, _ message: String) -> DeckError {
    DeckError(.corrupt, at: location.offset(Int64(offset)), message)
  }
}
