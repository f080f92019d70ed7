#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the media files a field refers to, the way Anki does when it exports or checks media
/// (`extract_media_refs` in `rslib/src/text.rs`): the `src` or `data` of `img`, `audio`,
/// `video`, `object` and `source` tags as its `HTML_MEDIA_TAGS` pattern finds them
/// (``HTMLMediaTags``), then `[sound:…]` tags, each name with its character references decoded
/// as Anki's `decode_entities` decodes them (``HTMLCharacterReferences/decodedAsAnki(_:)``).
package enum MediaReferences {
  /// The names `field` refers to, exactly as Anki's backend extracts them
  /// (`extract_media_files`): media tags first, then sound tags, each in order, remote URLs and
  /// odd names included.
  package static func references(in field: String) -> [String] {
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
      for tag in HTMLMediaTags.matches(in: bytes) {
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[tag.value]), as: UTF8.self)
        names.append(HTMLCharacterReferences.decodedAsAnki(value))
      }
      collectSoundTags(bytes, into: &names)
      return names
    }
  }

  /// The local files `field` refers to: ``references(in:)`` without names that hold a path
  /// separator (remote URLs, folders) or are `.` or `..`, which Anki never packages.
  package static func fileNames(in field: String) -> [String] {
    references(in: field).filter(isLocalFileName)
  }

  private static func isLocalFileName(_ name: String) -> Bool {
    !name.isEmpty && !name.containsUTF8Byte(UInt8(ascii: "/")) && !name.containsUTF8Byte(UInt8(ascii: "\\"))
      && name != ".." && name != "."
  }

  private static let soundOpener = Array("[sound:".utf8)

  /// Anki's `AV_TAGS`, `\[sound:(.+?)\]` (case-sensitive, `.` matching line breaks): the name
  /// is at least one character, up to the first `]` after it.
  private static func collectSoundTags(_ bytes: UnsafeBufferPointer<UInt8>, into names: inout [String]) {
    let opener = soundOpener
    var from = 0
    while let open = index(of: UInt8(ascii: "["), in: bytes, from: from), open + opener.count <= bytes.count {
      from = open + 1
      guard opener.indices.allSatisfy({ bytes[open + $0] == opener[$0] }) else { continue }
      let start = open + opener.count
      // `.+?` takes one whole character before it looks for the `]`.
      guard start < bytes.count else { return }
      var firstEnd = start + 1
      while firstEnd < bytes.count, bytes[firstEnd] & 0xC0 == 0x80 { firstEnd += 1 }
      guard let end = index(of: UInt8(ascii: "]"), in: bytes, from: firstEnd) else { return }
      let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
      names.append(HTMLCharacterReferences.decodedAsAnki(name))
      from = end + 1
    }
  }

  /// The index of the first `byte` in `bytes` at or after `start`, or nil: a `memchr`, many
  /// times faster than a byte loop over fields that are mostly text.
  private static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = bytes.baseAddress, start < bytes.count,
      let found = memchr(base + start, Int32(byte), bytes.count - start)
    else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }
}
