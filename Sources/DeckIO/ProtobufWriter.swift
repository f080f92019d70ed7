import Foundation

/// A protobuf wire-format encoder: appends fields to one message.
///
/// Every call writes its field, default value or not; proto3 writers leave defaults out, so
/// the caller decides what to write. Nested messages are written with ``writeMessage(field:_:)``.
package struct ProtobufWriter: Sendable {
  /// The encoded message so far.
  package var data = Data()

  /// Creates an empty message.
  package init() {}

  /// Writes a varint field (uint64, or the bits of int64, int32, uint32, enum).
  package mutating func writeVarint(field: Int, _ value: UInt64) {
    appendKey(field, .varint)
    appendVarint(value)
  }

  /// Writes an int64 (or int32, enum) field; negative values take ten bytes.
  package mutating func writeInt64(field: Int, _ value: Int64) {
    writeVarint(field: field, UInt64(bitPattern: value))
  }

  /// Writes a bool field as 0 or 1.
  package mutating func writeBool(field: Int, _ value: Bool) {
    writeVarint(field: field, value ? 1 : 0)
  }

  /// Writes a bytes field.
  package mutating func writeBytes(field: Int, _ value: Data) {
    appendKey(field, .lengthDelimited)
    appendVarint(UInt64(value.count))
    data.append(value)
  }

  /// Writes a string field as UTF-8.
  package mutating func writeString(field: Int, _ value: String) {
    writeBytes(field: field, Data(value.utf8))
  }

  /// Writes a float (fixed32) field.
  package mutating func writeFloat(field: Int, _ value: Float) {
    appendKey(field, .fixed32)
    appendLittleEndian(value.bitPattern)
  }

  /// Writes a double (fixed64) field.
  package mutating func writeDouble(field: Int, _ value: Double) {
    appendKey(field, .fixed64)
    appendLittleEndian(value.bitPattern)
  }

  /// Writes a nested message field.
  package mutating func writeMessage(field: Int, _ message: ProtobufWriter) {
    writeBytes(field: field, message.data)
  }

  /// Writes a packed repeated float field (nothing at all when `values` is empty, as protobuf
  /// does).
  package mutating func writePackedFloats(field: Int, _ values: [Float]) {
    guard !values.isEmpty else { return }
    appendKey(field, .lengthDelimited)
    appendVarint(UInt64(values.count * 4))
    for value in values { appendLittleEndian(value.bitPattern) }
  }

  private mutating func appendKey(_ field: Int, _ wireType: ProtobufWireType) {
    appendVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
  }

  private mutating func appendVarint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      data.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    data.append(UInt8(value))
  }

  private mutating func appendLittleEndian<Word: FixedWidthInteger>(_ value: Word) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }
}
