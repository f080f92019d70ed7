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
      for tag in soundTags(in: bytes) {
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[tag.name]), as: UTF8.self)
        names.append(HTMLCharacterReferences.decodedAsAnki(name))
      }
      return names
    }
  }

  /// `field` with each reference whose name (decoded as ``references(in:)`` decodes it)
  /// `newName` renames rewritten the way Anki's `replace_media_refs` rewrites it: within the
  /// whole match (the `<img …>` tag, the `[sound:…]`), every occurrence of the name as written
  /// is replaced by the new name, escaped as HTML (`&amp;`, `&#x27;`) when the name as written
  /// held character references; media tags first, then sound tags in the result. Nil when
  /// `newName` renames nothing.
  package static func renaming(in field: String, _ newName: (String) -> String?) -> String? {
    // Most fields name no file: without a '<' or a '[' there is nothing to look at.
    guard field.containsUTF8Byte(UInt8(ascii: "<")) || field.containsUTF8Byte(UInt8(ascii: "[")) else { return nil }
    // The field's own bytes are scanned; a copy is made only once a name is renamed.
    var text = field
    var rewritten: [UInt8]?
    for pass in [Pass.mediaTags, .soundTags] {
      let result: [UInt8]?
      if let bytes = rewritten {
        result = bytes.withUnsafeBufferPointer { renaming(in: $0, pass, newName) }
      } else {
        result = text.withUTF8 { renaming(in: $0, pass, newName) }
      }
      if let result { rewritten = result }
    }
    return rewritten.map { String(decoding: $0, as: UTF8.self) }
  }

  /// `bytes` with the references one pass finds renamed (``renaming(in:_:)``), or nil when
  /// `newName` renames none of them.
  private static func renaming(
    in buffer: UnsafeBufferPointer<UInt8>, _ pass: Pass, _ newName: (String) -> String?
  ) -> [UInt8]? {
    let matches: [(whole: Range<Int>, name: Range<Int>)] =
      switch pass {
      case .mediaTags: HTMLMediaTags.matches(in: buffer).map { ($0.whole, $0.value) }
      case .soundTags: soundTags(in: buffer)
      }
    var output: [UInt8] = []
    var copied = 0
    for match in matches {
      let name = String(decoding: UnsafeBufferPointer(rebasing: buffer[match.name]), as: UTF8.self)
      let decoded = HTMLCharacterReferences.decodedAsAnki(name)
      guard let renamed = newName(decoded) else { continue }
      let replacement =
        decoded.unicodeScalars.elementsEqual(name.unicodeScalars)
        ? renamed : HTMLEntities.escaping(renamed, quotes: true, breaksLines: false)
      output += buffer[copied..<match.whole.lowerBound]
      output += replacingEvery(
        Array(buffer[match.name]), in: Array(buffer[match.whole]), with: Array(replacement.utf8))
      copied = match.whole.upperBound
    }
    guard copied > 0 else { return nil }
    output += buffer[copied...]
    return output
  }

  /// The two kinds of reference, in the order Anki rewrites them.
  private enum Pass { case mediaTags, soundTags }

  /// `text` with every occurrence of `target` (not empty), from the left and not overlapping,
  /// replaced by `replacement`, as Rust's `str::replace` does.
  private static func replacingEvery(_ target: [UInt8], in text: [UInt8], with replacement: [UInt8]) -> [UInt8] {
    guard !target.isEmpty, text.count >= target.count else { return text }
    var output: [UInt8] = []
    output.reserveCapacity(text.count)
    var index = 0
    while index < text.count {
      if index + target.count <= text.count, text[index..<(index + target.count)].elementsEqual(target) {
        output += replacement
        index += target.count
      } else {
        output.append(text[index])
        index += 1
      }
    }
    return output
  }

  /// The files `field` refers to as Anki's import of a package finds them: ``references(in:)``
  /// that are one file name as a path (``isOneFileName(_:)``), so not remote URLs, folders, `.`
  /// or `..`. Anki's import renames such a name to the name it would store
  /// (``MediaFileName/normalized(_:)``: `a/` and `a\b.png` become `a` and `ab.png`) and keeps
  /// the file under that name; deckport's Anki writers rename the reference so. (Anki's export
  /// from its own folder finds a file only under the name as written, in NFC, and none for `a/`
  /// or `a\b.png`; its import of what it exported renames the reference all the same.)
  package static func fileNames(in field: String) -> [String] {
    references(in: field).filter(isOneFileName)
  }

  /// Whether `name`, read as a path the way Rust's `Path::components` reads it on Unix (Anki's
  /// test of a safe file name), is a single ordinary component: no leading `/`, and one part
  /// between slashes that is not `.` or `..`, where empty parts and `.` after the first part
  /// do not count (`a/`, `a//` and `a/.` are the file `a`; `./a`, `a/b` and `..` are not; a
  /// `\` is no separator).
  package static func isOneFileName(_ name: String) -> Bool {
    // Most names hold no slash: they are one part, an ordinary one unless empty, `.` or `..`.
    guard name.containsUTF8Byte(UInt8(ascii: "/")) else { return !name.isEmpty && name != "." && name != ".." }
    guard !name.hasPrefix("/") else { return false }
    let parts = name.split(separator: "/", omittingEmptySubsequences: true)
    let counted = parts.enumerated().filter { $0.offset == 0 || $0.element != "." }.map(\.element)
    guard counted.count == 1, let only = counted.first else { return false }
    return only != "." && only != ".."
  }

  private static let soundOpener = Array("[sound:".utf8)

  /// The matches of Anki's `AV_TAGS`, `\[sound:(.+?)\]` (case-sensitive, `.` matching line
  /// breaks), in order: the whole tag and its name, which is at least one character, up to the
  /// first `]` after it.
  private static func soundTags(in bytes: UnsafeBufferPointer<UInt8>) -> [(whole: Range<Int>, name: Range<Int>)] {
    let opener = soundOpener
    var tags: [(whole: Range<Int>, name: Range<Int>)] = []
    var from = 0
    while let open = index(of: UInt8(ascii: "["), in: bytes, from: from), open + opener.count <= bytes.count {
      from = open + 1
      guard opener.indices.allSatisfy({ bytes[open + $0] == opener[$0] }) else { continue }
      let start = open + opener.count
      // `.+?` takes one whole character before it looks for the `]`.
      guard start < bytes.count else { break }
      var firstEnd = start + 1
      while firstEnd < bytes.count, bytes[firstEnd] & 0xC0 == 0x80 { firstEnd += 1 }
      guard let end = index(of: UInt8(ascii: "]"), in: bytes, from: firstEnd) else { break }
      tags.append((open..<(end + 1), start..<end))
      from = end + 1
    }
    return tags
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
