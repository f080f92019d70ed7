import DeckCore
import DeckIO
import Foundation
import Testing

@Suite("Protobuf wire codec")
struct ProtobufTests {
  static let location = SourceLocation(file: "deck.apkg", member: "media")

  @Test("a MediaEntries entry as Anki writes it decodes")
  func mediaEntry() throws {
    let sha1 = [UInt8](0..<20)
    var bytes: [UInt8] = [0x0A, 0x23, 0x0A, 0x08]
    bytes += Array("beep.wav".utf8)
    bytes += [0x10, 0xBC, 0x03, 0x1A, 0x14] + sha1
    #expect(bytes.count == 2 + 0x23)

    var reader = ProtobufReader(Data(bytes), location: Self.location)
    let outer = try #require(try reader.nextField())
    #expect(outer.number == 1 && outer.wireType == .lengthDelimited)
    var entry = ProtobufReader(try reader.readLengthDelimited(), location: Self.location.item("entry 0"))
    #expect(try reader.nextField() == nil)

    var name = ""
    var size: UInt32 = 0
    var digest: [UInt8] = []
    while let field = try entry.nextField() {
      switch (field.number, field.wireType) {
      case (1, .lengthDelimited): name = try entry.readString()
      case (2, .varint): size = try entry.readUInt32()
      case (3, .lengthDelimited): digest = [UInt8](try entry.readLengthDelimited())
      default: try entry.skip(field.wireType)
      }
    }
    #expect(name == "beep.wav")
    #expect(size == 444)
    #expect(digest == sha1)
    #expect(entry.isAtEnd)
  }

  @Test("every field type round-trips through ProtobufWriter")
  func roundTrip() throws {
    var inner = ProtobufWriter()
    inner.writeString(field: 1, "caféblue.png")
    inner.writeVarint(field: 2, 69)
    var writer = ProtobufWriter()
    writer.writeVarint(field: 1, 3)
    writer.writeVarint(field: 2, UInt64.max)
    writer.writeInt64(field: 3, -5)
    writer.writeBool(field: 4, true)
    writer.writeBool(field: 5, false)
    writer.writeBytes(field: 6, Data([0, 1, 2]))
    writer.writeString(field: 7, "")
    writer.writeFloat(field: 8, 1.5)
    writer.writeDouble(field: 9, -2.25)
    writer.writeMessage(field: 10, inner)
    writer.writePackedFloats(field: 11, [0.5, -1, 3.25])
    writer.writeVarint(field: 255, 7)
    writer.writeVarint(field: 0x1FFF_FFFF, 1)

    var reader = ProtobufReader(writer.data, location: Self.location)
    func next() throws -> (Int, ProtobufWireType) {
      let field = try #require(try reader.nextField())
      return (field.number, field.wireType)
    }
    #expect(try next() == (1, .varint))
    #expect(try reader.readVarint() == 3)
    #expect(try next() == (2, .varint))
    #expect(try reader.readVarint() == UInt64.max)
    #expect(try next() == (3, .varint))
    #expect(try reader.readInt64() == -5)
    #expect(try next() == (4, .varint))
    #expect(try reader.readBool())
    #expect(try next() == (5, .varint))
    #expect(try reader.readBool() == false)
    #expect(try next() == (6, .lengthDelimited))
    #expect(try reader.readLengthDelimited() == Data([0, 1, 2]))
    #expect(try next() == (7, .lengthDelimited))
    #expect(try reader.readString() == "")
    #expect(try next() == (8, .fixed32))
    #expect(try reader.readFloat() == 1.5)
    #expect(try next() == (9, .fixed64))
    #expect(try reader.readDouble() == -2.25)
    #expect(try next() == (10, .lengthDelimited))
    var nested = ProtobufReader(try reader.readLengthDelimited(), location: Self.location)
    #expect(try nested.nextField()?.number == 1)
    #expect(try nested.readString() == "caféblue.png")
    #expect(try nested.nextField()?.number == 2)
    #expect(try nested.readUInt32() == 69)
    #expect(try next() == (11, .lengthDelimited))
    #expect(try reader.readPackedFloats() == [0.5, -1, 3.25])
    #expect(try next() == (255, .varint))
    #expect(try reader.readVarint() == 7)
    #expect(try next() == (0x1FFF_FFFF, .varint))
    #expect(try reader.readVarint() == 1)
    #expect(try reader.nextField() == nil)
  }

  @Test("encodings match protobuf's bytes")
  func exactBytes() {
    var writer = ProtobufWriter()
    writer.writeVarint(field: 1, 3)
    #expect(writer.data == Data([0x08, 0x03]), "PackageMetadata { version: 3 }")
    writer = ProtobufWriter()
    writer.writeVarint(field: 2, 300)
    writer.writeInt64(field: 3, -1)
    #expect(writer.data == Data([0x10, 0xAC, 0x02, 0x18] + [UInt8](repeating: 0xFF, count: 9) + [0x01]))
    writer = ProtobufWriter()
    writer.writeFloat(field: 1, 1)
    writer.writePackedFloats(field: 2, [])
    #expect(writer.data == Data([0x0D, 0x00, 0x00, 0x80, 0x3F]))
  }

  @Test("unknown fields of every wire type are skipped, groups included")
  func skipping() throws {
    var writer = ProtobufWriter()
    writer.writeVarint(field: 1, 1)
    writer.writeDouble(field: 2, 1)
    writer.writeFloat(field: 3, 1)
    writer.writeString(field: 4, "skip me")
    var bytes = [UInt8](writer.data)
    // Group 5 { field 1 varint 9; group 6 {} }, then field 7 = 42.
    bytes += [0x2B, 0x08, 0x09, 0x33, 0x34, 0x2C, 0x38, 0x2A]
    var reader = ProtobufReader(bytes, location: Self.location)
    var seen: [Int] = []
    while let field = try reader.nextField() {
      seen.append(field.number)
      if field.number == 7 {
        #expect(try reader.readVarint() == 42)
      } else {
        try reader.skip(field.wireType)
      }
    }
    #expect(seen == [1, 2, 3, 4, 5, 7])
  }

  @Test("ff ff ff is an invalid varint at byte 0")
  func invalidVarint() throws {
    var reader = ProtobufReader(Data([0xFF, 0xFF, 0xFF]), location: SourceLocation(file: "deck.apkg", member: "meta"))
    let error = try #require(throws: DeckError.self) { _ = try reader.nextField() }
    #expect(error.kind == .corrupt)
    #expect(error.location.byteOffset == 0)
    #expect(error.description == "deck.apkg: member 'meta': byte 0: protobuf: invalid varint")
  }

  @Test("an 11-byte varint is invalid")
  func overlongVarint() throws {
    var reader = ProtobufReader([0x08] + [UInt8](repeating: 0x80, count: 10) + [0x01], location: Self.location)
    _ = try reader.nextField()
    let error = try #require(throws: DeckError.self) { _ = try reader.readVarint() }
    #expect(error.message == "protobuf: invalid varint")
    #expect(error.location.byteOffset == 1)
  }

  @Test("truncated values are buffer underflows naming the field and offset")
  func truncation() throws {
    // Field 3, length 20, but only 2 bytes follow.
    var reader = ProtobufReader(Data([0x08, 0x01, 0x1A, 0x14, 0xAA, 0xBB]), location: Self.location)
    _ = try reader.nextField()
    _ = try reader.readVarint()
    #expect(try reader.nextField()?.number == 3)
    let error = try #require(throws: DeckError.self) { _ = try reader.readLengthDelimited() }
    #expect(error.kind == .corrupt)
    #expect(
      error.description
        == "deck.apkg: member 'media': byte 3: protobuf: field 3 runs past the end of the message (buffer underflow)")

    var fixed = ProtobufReader(Data([0x0D, 0x00, 0x00]), location: Self.location)
    _ = try fixed.nextField()
    let fixedError = try #require(throws: DeckError.self) { _ = try fixed.readFloat() }
    #expect(fixedError.message == "protobuf: field 1 runs past the end of the message (buffer underflow)")

    var skipping = ProtobufReader(Data([0x11, 0x00]), location: Self.location)
    let field = try #require(try skipping.nextField())
    #expect(throws: DeckError.self) { try skipping.skip(field.wireType) }

    var group = ProtobufReader(Data([0x0B, 0x10, 0x01]), location: Self.location)
    let groupField = try #require(try group.nextField())
    #expect(throws: DeckError.self) { try group.skip(groupField.wireType) }
  }

  @Test("invalid wire types, field 0 and bad UTF-8 are corrupt")
  func invalidInput() throws {
    var wireType = ProtobufReader(Data([0x0E]), location: Self.location)
    let wireError = try #require(throws: DeckError.self) { _ = try wireType.nextField() }
    #expect(wireError.message == "protobuf: invalid wire type 6 for field 1")

    var fieldZero = ProtobufReader(Data([0x00, 0x01]), location: Self.location)
    let zeroError = try #require(throws: DeckError.self) { _ = try fieldZero.nextField() }
    #expect(zeroError.message == "protobuf: invalid field number 0")

    var text = ProtobufReader(Data([0x0A, 0x02, 0xC3, 0x28]), location: Self.location)
    _ = try text.nextField()
    let textError = try #require(throws: DeckError.self) { _ = try text.readString() }
    #expect(textError.kind == .corrupt)
    #expect(textError.message == "protobuf: field 1 is not valid UTF-8 text")

    var packed = ProtobufReader(Data([0x0A, 0x03, 0, 0, 0]), location: Self.location)
    _ = try packed.nextField()
    #expect(throws: DeckError.self) { _ = try packed.readPackedFloats() }
  }

  @Test("an empty message has no fields")
  func empty() throws {
    var reader = ProtobufReader(Data(), location: Self.location)
    #expect(try reader.nextField() == nil)
  }

  @Test("a reader over a Data slice starts at the slice")
  func slice() throws {
    let data = Data([0xFF, 0x08, 0x05])[1...]
    var reader = ProtobufReader(data, location: Self.location)
    #expect(try reader.nextField()?.number == 1)
    #expect(try reader.readVarint() == 5)
  }
}
