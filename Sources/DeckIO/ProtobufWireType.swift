/// How a protobuf field's value is encoded, from the low three bits of its key.
package enum ProtobufWireType: UInt8, Sendable, Hashable {
  /// A base-128 varint: int32, int64, uint32, uint64, sint32, sint64, bool, enum.
  case varint = 0
  /// Eight little-endian bytes: fixed64, sfixed64, double.
  case fixed64 = 1
  /// A varint length, then that many bytes: string, bytes, messages, packed repeated fields.
  case lengthDelimited = 2
  /// The start of a (deprecated) group.
  case startGroup = 3
  /// The end of a (deprecated) group.
  case endGroup = 4
  /// Four little-endian bytes: fixed32, sfixed32, float.
  case fixed32 = 5
}
