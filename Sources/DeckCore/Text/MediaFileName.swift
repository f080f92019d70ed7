import Foundation

/// Media file names as Anki accepts them: one path component, NFC, none of the characters
/// Windows forbids, no Windows device names, at most 120 bytes of UTF-8.
///
/// A name from any package is untrusted; ``normalized(_:)`` turns it into the name Anki would
/// store, and ``isSafe(_:)`` tells whether a name needs no change.
package enum MediaFileName {
  /// The longest name Anki stores, in bytes of UTF-8.
  package static let maximumByteCount = 120
  /// The longest extension Anki keeps when it shortens a name, in bytes of UTF-8.
  package static let maximumExtensionByteCount = 10

  private static let forbiddenCharacters: Set<Unicode.Scalar> = [
    "[", "]", "<", ">", ":", "\"", "/", "?", "*", "^", "\\", "|",
  ]
  /// `forbiddenCharacters` as a table of ASCII bytes.
  private static let forbiddenASCII: [Bool] = (0..<128).map {
    forbiddenCharacters.contains(Unicode.Scalar(UInt8($0)))
  }
  private static let deviceNames = Set(
    ["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

  /// The name Anki would store for `name`: NFC, forbidden and control characters and unassigned
  /// code points removed, NBSP turned into a space, device names and trailing spaces or dots
  /// suffixed with `_`, and the whole cut to 120 bytes. An empty result means nothing usable
  /// was left.
  package static func normalized(_ name: String) -> String {
    // Printable ASCII without a forbidden character (most names) is already NFC and holds
    // nothing to remove: only the device-name, length and trailing rules can apply.
    if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && !forbiddenASCII[Int($0)] }) {
      var result = suffixDeviceName(name)
      result = shortened(result)
      if result.hasSuffix(" ") || result.hasSuffix(".") { result += "_" }
      if result == "." || result == ".." { result = "" }
      return result
    }
    var scalars = String.UnicodeScalarView()
    for scalar in name.canonicallyComposed.unicodeScalars {
      if forbiddenCharacters.contains(scalar) || scalar.value < 0x20 || scalar.value == 0x7F {
        continue
      }
      if scalar.properties.generalCategory == .unassigned { continue }
      scalars.append(scalar == "\u{00A0}" ? " " : scalar)
    }
    var result = String(scalars)
    result = suffixDeviceName(result)
    result = shortened(result)
    if result.hasSuffix(" ") || result.hasSuffix(".") { result += "_" }
    if result == "." || result == ".." { result = "" }
    return result
  }

  /// Whether `name` is already what Anki would store (normalising changes nothing) and is one
  /// path component.
  package static func isSafe(_ name: String) -> Bool {
    !name.isEmpty && isUnchanged(name, by: normalized(name))
  }

  /// Whether two names are the same code points. Swift's `==` treats canonically equivalent
  /// strings (NFD and NFC) as equal, but a file system and Anki's media map do not.
  package static func isUnchanged(_ name: String, by normalizedName: String) -> Bool {
    name.unicodeScalars.elementsEqual(normalizedName.unicodeScalars)
  }

  /// `name` as it can be shown in a message: what ``TerminalText/escaped(_:)`` escapes, and also
  /// combining marks, format characters and unassigned code points, written as `\u{…}`, so an
  /// NFD name or a hidden character is visible.
  package static func visible(_ name: String) -> String {
    TerminalText.escaped(name) { scalar in
      switch scalar.properties.generalCategory {
      case .control, .nonspacingMark, .spacingMark, .enclosingMark, .format, .unassigned,
        .lineSeparator, .paragraphSeparator, .privateUse, .surrogate:
        true
      default:
        false
      }
    }
  }

  private static func suffixDeviceName(_ name: String) -> String {
    let stemEnd = name.firstIndex(of: ".") ?? name.endIndex
    let stem = name[..<stemEnd]
    guard deviceNames.contains(stem.uppercased()) else { return name }
    return stem + "_" + name[stemEnd...]
  }

  private static func shortened(_ name: String) -> String {
    guard name.utf8.count > maximumByteCount else { return name }
    var stem = Substring(name)
    var ext = Substring("")
    if let dot = name.lastIndex(of: "."), dot != name.startIndex {
      stem = name[..<dot]
      ext = name[dot...]
    }
    ext = prefix(of: ext, maximumBytes: maximumExtensionByteCount + 1)
    stem = prefix(of: stem, maximumBytes: maximumByteCount - ext.utf8.count)
    var shortenedStem = String(stem)
    if shortenedStem.hasSuffix(" ") || shortenedStem.hasSuffix(".") {
      shortenedStem =
        String(prefix(of: stem, maximumBytes: maximumByteCount - ext.utf8.count - 1))
        + "_"
    }
    return shortenedStem + ext
  }

  /// The longest prefix of `text` made of whole characters that fits in `maximumBytes` of UTF-8.
  private static func prefix(of text: Substring, maximumBytes: Int) -> Substring {
    var byteCount = 0
    var end = text.startIndex
    for index in text.indices {
      let characterBytes = text[index].utf8.count
      if byteCount + characterBytes > maximumBytes { break }
      byteCount += characterBytes
      end = text.index(after: index)
    }
    return text[..<end]
  }
}
