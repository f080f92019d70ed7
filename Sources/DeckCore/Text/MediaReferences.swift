#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the media files a field refers to, the way Anki does when it exports or checks media:
/// `src`/`data` attributes of `img`, `audio`, `video`, `object` and `source` tags, and
/// `[sound:…]` tags. Names with a path separator (remote URLs, folders) are skipped, because
/// Anki never packages them.
package enum MediaReferences {
  /// The file names `field` refers to, in order of appearance, HTML entities decoded.
  package static func fileNames(in field: String) -> [String] {
    var field = field
    return field.withUTF8 { bytes in
      // Most fields name no file: without a '<' or a '[' there is nothing to look at.
      guard
        index(of: UInt8(ascii: "<"), in: bytes, from: 0) != nil
          || index(of: UInt8(ascii: "["), in: bytes, from: 0) != nil
      else {
        return []
      }
      var names: [String] = []
      collectSoundTags(bytes, into: &names)
      collectHTMLTags(bytes, into: &names)
      return names.filter(isLocalFileName)
    }
  }

  private static func isLocalFileName(_ name: String) -> Bool {
    !name.isEmpty && !name.containsUTF8Byte(UInt8(ascii: "/")) && !name.containsUTF8Byte(UInt8(ascii: "\\"))
      && name != ".."
  }

  private static let soundOpener = Array("[sound:".utf8)

  private static func collectSoundTags(_ bytes: UnsafeBufferPointer<UInt8>, into names: inout [String]) {
    let opener = soundOpener
    var from = 0
    while let open = index(of: UInt8(ascii: "["), in: bytes, from: from), open + opener.count <= bytes.count {
      from = open + 1
      guard matches(bytes, at: open, opener) else { continue }
      let start = open + opener.count
      if let end = index(of: UInt8(ascii: "]"), in: bytes, from: start) {
        names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        from = end + 1
      }
    }
  }

  private static let mediaTagNames: [[UInt8]] = ["img", "audio", "video", "object", "source"].map {
    Array($0.utf8)
  }

  private static func collectHTMLTags(_ bytes: UnsafeBufferPointer<UInt8>, into names: inout [String]) {
    let tagNames = mediaTagNames
    var from = 0
    while let open = index(of: UInt8(ascii: "<"), in: bytes, from: from) {
      guard let close = index(of: UInt8(ascii: ">"), in: bytes, from: open) else { return }
      let tagStart = open + 1
      from = close + 1
      guard let nameEnd = bytes[tagStart..<close].firstIndex(where: isSpace), nameEnd > tagStart else {
        continue
      }
      let nameLength = nameEnd - tagStart
      let isMediaTag = tagNames.contains { name in
        name.count == nameLength && matches(bytes, at: tagStart, name)
      }
      guard isMediaTag else { continue }
      if let value = attributeValue(in: UnsafeBufferPointer(rebasing: bytes[nameEnd..<close]), named: sourceAttributes)
      {
        names.append(HTMLEntities.decode(value))
      }
    }
  }

  /// The attributes that name a media tag's file, in lower case.
  private static let sourceAttributes: [[UInt8]] = ["src", "data"].map { Array($0.utf8) }

  /// The value of the first attribute among `names` (lower case) in the attribute text of a tag
  /// (`name=value`, `name="value"` or `name='value'`; attributes without a value are skipped).
  /// Names are compared byte by byte, ignoring ASCII case, without making a string of each.
  private static func attributeValue(in attributes: UnsafeBufferPointer<UInt8>, named names: [[UInt8]])
    -> String?
  {
    var index = attributes.startIndex
    let end = attributes.endIndex
    func isNameByte(_ byte: UInt8) -> Bool {
      !isSpace(byte) && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "/")
    }
    while index < end {
      let nameStart = index
      while index < end, isNameByte(attributes[index]) { index += 1 }
      let name = nameStart..<index
      while index < end, isSpace(attributes[index]) { index += 1 }
      guard index < end, attributes[index] == UInt8(ascii: "=") else {
        if index == nameStart { index += 1 }  // a stray '/' or '=': step over it
        continue
      }
      index += 1
      while index < end, isSpace(attributes[index]) { index += 1 }
      guard index < end else { return nil }
      let valueRange: Range<Int>
      let quote = attributes[index]
      if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
        let valueEnd = attributes[(index + 1)...].firstIndex(of: quote) ?? end
        valueRange = (index + 1)..<valueEnd
        index = min(valueEnd + 1, end)
      } else {
        let valueStart = index
        while index < end, !isSpace(attributes[index]) { index += 1 }
        valueRange = valueStart..<index
      }
      if names.contains(where: { $0.count == name.count && matches(attributes, at: name.lowerBound, $0) }) {
        return String(decoding: UnsafeBufferPointer(rebasing: attributes[valueRange]), as: UTF8.self)
      }
    }
    return nil
  }

  /// The index of the first `byte` in `bytes` at or after `start`, or nil: a `memchr`, many
  /// times faster than a byte loop over fields that are mostly text.
  private static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = bytes.baseAddress, start < bytes.count,
      let found = memchr(base + start, Int32(byte), bytes.count - start)
    else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }

  private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ pattern: [UInt8]) -> Bool {
    for (offset, byte) in pattern.enumerated() where lowercased(bytes[index + offset]) != byte {
      return false
    }
    return true
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
  }
}
