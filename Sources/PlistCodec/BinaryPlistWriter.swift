import Foundation

/// Writes a binary property list (`bplist00`) the way CoreFoundation does: objects depth-first
/// from the top, equal scalars (strings, numbers, dates, data) stored once, ASCII strings as
/// 8-bit and others as UTF-16BE, the smallest offset and reference sizes that fit.
package struct BinaryPlistWriter {
  private var objects: [[UInt8]] = []
  /// Each scalar object's bytes, and its object number: equal bytes are an exactly equal value.
  private var unique: [ObjectBytes: Int] = [:]

  /// An object's bytes as a dictionary key: equal when the bytes are, hashed by their count and
  /// their first and last 64 bytes, so that a picture of megabytes is not hashed byte by byte.
  private struct ObjectBytes: Hashable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
      hasher.combine(bytes.count)
      bytes.withUnsafeBytes { raw in
        hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(64)))
        if raw.count > 64 { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.suffix(64))) }
      }
    }
  }

  /// The bytes of a binary plist whose top object is `value`.
  package static func data(_ value: PlistValue) -> Data {
    var writer = BinaryPlistWriter()
    let count = writer.countObjects(value)
    let referenceSize = Self.byteCount(for: UInt64(max(count, 1) - 1))
    writer.objects.reserveCapacity(count)
    _ = writer.add(value, referenceSize: referenceSize)
    var output = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in writer.objects {
      offsets.append(output.count)
      output += object
    }
    let tableOffset = output.count
    let offsetSize = Self.byteCount(for: UInt64(offsets.last ?? 8))
    for offset in offsets { output += Self.bigEndian(UInt64(offset), size: offsetSize) }
    output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
    output += Self.bigEndian(UInt64(writer.objects.count), size: 8)
    output += Self.bigEndian(0, size: 8)
    output += Self.bigEndian(UInt64(tableOffset), size: 8)
    return Data(output)
  }

  /// How many objects `value` becomes (an upper bound before uniquing, used for the reference
  /// size; uniquing only lowers the count).
  private func countObjects(_ value: PlistValue) -> Int {
    switch value {
    case .array(let items): return 1 + items.reduce(0) { $0 + countObjects($1) }
    case .dictionary(let dictionary):
      return 1 + dictionary.entries.reduce(0) { $0 + 1 + countObjects($1.value) }
    default: return 1
    }
  }

  /// Appends `value` (and what it contains) and returns its object number.
  private mutating func add(_ value: PlistValue, referenceSize: Int) -> Int {
    switch value {
    case .array(let items):
      let index = reserve()
      let references = items.map { add($0, referenceSize: referenceSize) }
      objects[index] =
        Self.header(0xA, count: references.count)
        + references.flatMap { Self.bigEndian(UInt64($0), size: referenceSize) }
      return index
    case .dictionary(let dictionary):
      let index = reserve()
      let keys = dictionary.entries.map { add(.string($0.key), referenceSize: referenceSize) }
      let values = dictionary.entries.map { add($0.value, referenceSize: referenceSize) }
      objects[index] =
        Self.header(0xD, count: keys.count)
        + (keys + values).flatMap { Self.bigEndian(UInt64($0), size: referenceSize) }
      return index
    default:
      let object = Self.scalar(value)
      if let existing = unique[ObjectBytes(bytes: object)] { return existing }
      let index = objects.count
      objects.append(object)
      unique[ObjectBytes(bytes: object)] = index
      return index
    }
  }

  private mutating func reserve() -> Int {
    objects.append([])
    return objects.count - 1
  }

  private static func scalar(_ value: PlistValue) -> [UInt8] {
    switch value {
    case .bool(let flag): return [flag ? 0x09 : 0x08]
    case .integer(let number): return integer(number)
    case .unsignedInteger(let number): return [0x14] + bigEndian(0, size: 8) + bigEndian(number, size: 8)
    case .real(let number): return [0x23] + bigEndian(number.bitPattern, size: 8)
    case .date(let seconds): return [0x33] + bigEndian(seconds.bitPattern, size: 8)
    case .data(let data): return header(0x4, count: data.count) + Array(data)
    case .string(let text):
      if text.utf8.allSatisfy({ $0 < 0x80 }) {
        return header(0x5, count: text.utf8.count) + Array(text.utf8)
      }
      let units = Array(text.utf16)
      return header(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    case .uid(let number):
      let size = byteCount(for: number)
      return [0x80 | UInt8(size - 1)] + bigEndian(number, size: size)
    case .array, .dictionary: return []
    }
  }

  /// The integer object for `number`: 1, 2 or 4 unsigned bytes when it fits, else 8 bytes.
  private static func integer(_ number: Int64) -> [UInt8] {
    switch number {
    case 0...0xFF: return [0x10, UInt8(number)]
    case 0...0xFFFF: return [0x11] + bigEndian(UInt64(number), size: 2)
    case 0...0xFFFF_FFFF: return [0x12] + bigEndian(UInt64(number), size: 4)
    default: return [0x13] + bigEndian(UInt64(bitPattern: number), size: 8)
    }
  }

  /// A marker with its count in the low nibble, or 0xF and an integer object for 15 and more.
  private static func header(_ kind: UInt8, count: Int) -> [UInt8] {
    if count < 15 { return [kind << 4 | UInt8(count)] }
    return [kind << 4 | 0x0F] + integer(Int64(count))
  }

  /// The number of bytes (1, 2, 4 or 8) that hold `value`.
  private static func byteCount(for value: UInt64) -> Int {
    switch value {
    case 0...0xFF: 1
    case 0...0xFFFF: 2
    case 0...0xFFFF_FFFF: 4
    default: 8
    }
  }

  private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
  }
}
