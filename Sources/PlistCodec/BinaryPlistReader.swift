import Foundation

/// Reads a binary property list (`bplist00`): the 32-byte trailer, the offset table, then the
/// objects from the top object down. Dictionaries keep the order their keys have in the file.
///
/// Every offset and count is checked against the file's size, object references that loop back
/// on themselves are refused, and the number of objects visited is capped, so a damaged or
/// hostile file gives an error, never a crash.
package struct BinaryPlistReader {
  private let bytes: [UInt8]
  private let offsets: [Int]
  private let referenceSize: Int
  private var budget = 50_000_000
  private var inProgress = Set<Int>()

  /// The magic the file starts with.
  package static let magic = Array("bplist0".utf8)

  /// Parses `data` and returns its top object.
  package static func read(_ data: Data) throws(PlistFormatError) -> PlistValue {
    var reader = try BinaryPlistReader(bytes: Array(data))
    return try reader.topObject
  }

  private let top: Int

  private init(bytes: [UInt8]) throws(PlistFormatError) {
    self.bytes = bytes
    guard bytes.count >= 8 + 32, bytes.starts(with: Self.magic) else {
      throw PlistFormatError(message: "too short for a binary plist (\(bytes.count) bytes)", byteOffset: 0)
    }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let referenceSize = Int(bytes[trailer + 7])
    let objectCount = Self.unsigned(bytes, at: trailer + 8, size: 8)
    let topObject = Self.unsigned(bytes, at: trailer + 16, size: 8)
    let tableOffset = Self.unsigned(bytes, at: trailer + 24, size: 8)
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
      throw PlistFormatError(
        message:
          "the trailer gives offset size \(offsetSize) and reference size \(referenceSize) (each must be 1 to 8)",
        byteOffset: trailer + 6)
    }
    guard objectCount > 0, topObject < objectCount, tableOffset >= 8,
      objectCount <= UInt64(trailer), tableOffset <= UInt64(trailer),
      UInt64(trailer) - tableOffset >= objectCount * UInt64(offsetSize)
    else {
      throw PlistFormatError(
        message:
          "the trailer is inconsistent (\(objectCount) objects, top object \(topObject), offset table at \(tableOffset))",
        byteOffset: trailer + 8)
    }
    var offsets: [Int] = []
    offsets.reserveCapacity(Int(objectCount))
    for index in 0..<Int(objectCount) {
      let offset = Self.unsigned(bytes, at: Int(tableOffset) + index * offsetSize, size: offsetSize)
      guard offset >= 8, offset < tableOffset else {
        throw PlistFormatError(
          message: "object \(index) is said to start at byte \(offset), outside the object area",
          byteOffset: Int(tableOffset) + index * offsetSize)
      }
      offsets.append(Int(offset))
    }
    self.offsets = offsets
    self.referenceSize = referenceSize
    self.top = Int(topObject)
  }

  private var topObject: PlistValue {
    mutating get throws(PlistFormatError) { try object(top) }
  }

  private static func unsigned(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for position in offset..<(offset + size) { value = value << 8 | UInt64(bytes[position]) }
    return value
  }

  private func need(_ count: Int, at offset: Int) throws(PlistFormatError) {
    guard count >= 0, offset <= bytes.count, bytes.count - offset >= count else {
      throw PlistFormatError(message: "an object runs past the end of the file", byteOffset: offset)
    }
  }

  private mutating func object(_ reference: Int) throws(PlistFormatError) -> PlistValue {
    guard reference >= 0, reference < offsets.count else {
      throw PlistFormatError(
        message: "a reference to object \(reference), but there are \(offsets.count)", byteOffset: nil)
    }
    budget -= 1
    guard budget > 0 else {
      throw PlistFormatError(message: "too many objects (shared objects repeated too often)", byteOffset: nil)
    }
    let start = offsets[reference]
    let marker = bytes[start]
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return .bool(false)
      case 0x09: return .bool(true)
      default:
        throw PlistFormatError(
          message: String(format: "marker 0x%02X is not a value a plist can hold", marker), byteOffset: start)
      }
    case 0x1:
      return try integer(at: start + 1, size: 1 << low)
    case 0x2:
      let size = 1 << low
      try need(size, at: start + 1)
      switch size {
      case 4: return .real(Double(Float(bitPattern: UInt32(Self.unsigned(bytes, at: start + 1, size: 4)))))
      case 8: return .real(Double(bitPattern: Self.unsigned(bytes, at: start + 1, size: 8)))
      default: throw PlistFormatError(message: "a real of \(size) bytes (4 or 8 expected)", byteOffset: start)
      }
    case 0x3:
      guard marker == 0x33 else {
        throw PlistFormatError(message: String(format: "marker 0x%02X is not a date", marker), byteOffset: start)
      }
      try need(8, at: start + 1)
      return .date(Double(bitPattern: Self.unsigned(bytes, at: start + 1, size: 8)))
    case 0x4:
      let (count, body) = try length(low, at: start)
      try need(count, at: body)
      return .data(Data(bytes[body..<(body + count)]))
    case 0x5:
      let (count, body) = try length(low, at: start)
      try need(count, at: body)
      guard bytes[body..<(body + count)].allSatisfy({ $0 < 0x80 }) else {
        throw PlistFormatError(message: "an ASCII string holds a byte above 0x7F", byteOffset: body)
      }
      return .string(String(decoding: bytes[body..<(body + count)], as: UTF8.self))
    case 0x6:
      let (count, body) = try length(low, at: start)
      guard count <= Int.max / 2 else { throw PlistFormatError(message: "a string is too long", byteOffset: start) }
      try need(count * 2, at: body)
      var units: [UInt16] = []
      units.reserveCapacity(count)
      for index in 0..<count {
        units.append(UInt16(bytes[body + 2 * index]) << 8 | UInt16(bytes[body + 2 * index + 1]))
      }
      guard let text = String(validating: units, as: UTF16.self) else {
        throw PlistFormatError(message: "a UTF-16 string holds an unpaired surrogate", byteOffset: body)
      }
      return .string(text)
    case 0x7:
      let (count, body) = try length(low, at: start)
      try need(count, at: body)
      guard let text = String(validating: bytes[body..<(body + count)], as: UTF8.self) else {
        throw PlistFormatError(message: "a UTF-8 string is not valid UTF-8", byteOffset: body)
      }
      return .string(text)
    case 0x8:
      try need(low + 1, at: start + 1)
      return .uid(Self.unsigned(bytes, at: start + 1, size: low + 1))
    case 0xA:
      let (count, body) = try length(low, at: start)
      let references = try self.references(count, at: body)
      return try nested(reference) { reader throws(PlistFormatError) in
        var items: [PlistValue] = []
        items.reserveCapacity(count)
        for item in references { items.append(try reader.object(item)) }
        return .array(items)
      }
    case 0xD:
      let (count, body) = try length(low, at: start)
      guard count <= Int.max / 2 else {
        throw PlistFormatError(message: "a dictionary is too large", byteOffset: start)
      }
      let references = try self.references(count * 2, at: body)
      return try nested(reference) { reader throws(PlistFormatError) in
        var entries: [PlistDictionary.Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
          guard case .string(let key) = try reader.object(references[index]) else {
            throw PlistFormatError(message: "a dictionary key is not a string", byteOffset: start)
          }
          entries.append(.init(key: key, value: try reader.object(references[count + index])))
        }
        return .dictionary(PlistDictionary(entries))
      }
    default:
      throw PlistFormatError(
        message: String(format: "marker 0x%02X is not a value a plist can hold", marker), byteOffset: start)
    }
  }

  /// Runs `body` for a container, refusing a reference back to a container still being read and
  /// nesting deeper than 512.
  private mutating func nested(
    _ reference: Int, _ body: (inout BinaryPlistReader) throws(PlistFormatError) -> PlistValue
  ) throws(PlistFormatError) -> PlistValue {
    guard inProgress.count < 512 else {
      throw PlistFormatError(message: "arrays and dictionaries nest more than 512 deep", byteOffset: offsets[reference])
    }
    guard inProgress.insert(reference).inserted else {
      throw PlistFormatError(message: "object \(reference) contains itself", byteOffset: offsets[reference])
    }
    defer { inProgress.remove(reference) }
    return try body(&self)
  }

  private func integer(at offset: Int, size: Int) throws(PlistFormatError) -> PlistValue {
    try need(size, at: offset)
    switch size {
    case 1, 2, 4: return .integer(Int64(Self.unsigned(bytes, at: offset, size: size)))
    case 8: return .integer(Int64(bitPattern: Self.unsigned(bytes, at: offset, size: 8)))
    case 16:
      let high = Self.unsigned(bytes, at: offset, size: 8)
      let low = Self.unsigned(bytes, at: offset + 8, size: 8)
      if high == 0 { return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low) }
      if high == UInt64.max, low > UInt64(Int64.max) { return .integer(Int64(bitPattern: low)) }
      throw PlistFormatError(message: "an integer does not fit in 64 bits", byteOffset: offset)
    default:
      throw PlistFormatError(message: "an integer of \(size) bytes (1, 2, 4, 8 or 16 expected)", byteOffset: offset - 1)
    }
  }

  /// The element count of the object at `start` (from the marker's low nibble, or the integer
  /// after it when the nibble is 0xF) and where its body begins.
  private func length(_ low: Int, at start: Int) throws(PlistFormatError) -> (Int, Int) {
    guard low == 0x0F else { return (low, start + 1) }
    try need(1, at: start + 1)
    let marker = bytes[start + 1]
    guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
      throw PlistFormatError(message: "a length marker must be an integer", byteOffset: start + 1)
    }
    let size = 1 << Int(marker & 0x0F)
    guard case .integer(let count) = try integer(at: start + 2, size: size), count >= 0, count < Int64(bytes.count) * 8
    else {
      throw PlistFormatError(message: "a length is negative or larger than the file", byteOffset: start + 1)
    }
    return (Int(count), start + 2 + size)
  }

  private func references(_ count: Int, at offset: Int) throws(PlistFormatError) -> [Int] {
    guard count <= (bytes.count - min(offset, bytes.count)) / referenceSize else {
      throw PlistFormatError(message: "a container lists more objects than the file can hold", byteOffset: offset)
    }
    return (0..<count).map {
      Int(truncatingIfNeeded: Self.unsigned(bytes, at: offset + $0 * referenceSize, size: referenceSize))
    }
  }
}
