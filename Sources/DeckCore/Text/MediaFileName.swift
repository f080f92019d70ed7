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
  /// code points removed, NBSP turned into a space, device names and a trailing space or dot
  /// suffixed with `_`, and a name over 120 bytes cut as Anki cuts it (``shortened(_:)``), then
  /// given a `_` again if it now ends in a space or dot. An empty result means nothing usable
  /// was left.
  package static func normalized(_ name: String) -> String {
    // Printable ASCII without a forbidden character (most names) is already NFC and holds
    // nothing to remove: only the device-name, length and trailing rules can apply.
    if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && !forbiddenASCII[Int($0)] }) {
      return markingTrailing(shortened(markingTrailing(suffixDeviceName(name))))
    }
    var scalars = String.UnicodeScalarView()
    for scalar in name.canonicallyComposed.unicodeScalars {
      if forbiddenCharacters.contains(scalar) || scalar.value < 0x20 || scalar.value == 0x7F {
        continue
      }
      if scalar.properties.generalCategory == .unassigned { continue }
      scalars.append(scalar == "\u{00A0}" ? " " : scalar)
    }
    return markingTrailing(shortened(markingTrailing(suffixDeviceName(String(scalars)))))
  }

  /// Whether Anki's import of a deck package copies a file of this name even when nothing refers
  /// to it: a "static" file, whose name starts with `_` (fonts, scripts and style sheets a note
  /// type loads, perhaps through another file) or `latex-` (a LaTeX image). Every other file
  /// nothing refers to is left out by that import.
  package static func isStatic(_ name: String) -> Bool {
    name.utf8.first == UInt8(ascii: "_") || name.utf8.starts(with: "latex-".utf8)
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

  /// The `media-renamed` warning for a media file named `name` that Anki stores as `stored`
  /// (``normalized(_:)``), in the words every reader uses: the Unicode form alone, or the new
  /// name, both shown as ``visible(_:)`` shows them.
  package static func renamedWarning(_ name: String, as stored: String, at location: SourceLocation) -> Diagnostic {
    let change =
      stored == name.canonicallyComposed
      ? "media file '\(visible(stored))' is named in decomposed Unicode (not NFC); it is renamed to the composed (NFC) form"
      : "media file '\(visible(name))' is renamed '\(visible(stored))'"
    return Diagnostic(
      .mediaRenamed, at: location, "\(change), with every reference to it in the notes, as Anki renames it on import")
  }

  /// `name` as it can be shown in a message: what ``TerminalText/escaped(_:)`` escapes, and also
  /// format characters and unassigned code points, written as `\u{…}`, so a hidden character is
  /// visible; and, in a name not in NFC, its combining marks, so that it reads otherwise than
  /// its NFC form (a name in NFC keeps its marks: Devanagari or Thai stays readable).
  package static func visible(_ name: String) -> String {
    let escapesMarks =
      name.mayChangeInNFC && !name.unicodeScalars.elementsEqual(name.canonicallyComposed.unicodeScalars)
    return TerminalText.escaped(name) { scalar in
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .spacingMark, .enclosingMark:
        escapesMarks
      case .control, .format, .unassigned, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate:
        true
      default:
        false
      }
    }
  }

  private static func suffixDeviceName(_ name: String) -> String {
    let stemEnd = name.firstIndex(of: ".") ?? name.endIndex
    let stem = name[..<stemEnd]
    // Every device name is 3 or 4 letters: most names are rejected before they are uppercased.
    guard (3...4).contains(stem.utf8.count), deviceNames.contains(stem.uppercased()) else { return name }
    return stem + "_" + name[stemEnd...]
  }

  /// `name` with a `_` after a last character that is a space or a dot, which Windows drops.
  private static func markingTrailing(_ name: String) -> String {
    guard let last = name.unicodeScalars.last, last == " " || last == "." else { return name }
    return name + "_"
  }

  /// `name` cut to 120 bytes as Anki cuts it, when it is longer: the extension (after the last
  /// dot; all of a name that starts with its only dot) to its first 10 bytes, the part before
  /// it to 120 bytes less the extension and 2; a name without a dot to 118 bytes. Cuts fall
  /// between code points.
  private static func shortened(_ name: String) -> String {
    guard name.utf8.count > maximumByteCount else { return name }
    let scalars = name.unicodeScalars
    guard let dot = scalars.lastIndex(of: ".") else {
      return String(Substring(prefix(of: scalars[...], maximumBytes: maximumByteCount - 2)))
    }
    let ext = prefix(of: scalars[scalars.index(after: dot)...], maximumBytes: maximumExtensionByteCount)
    let extBytes = ext.reduce(0) { $0 + UTF8.width($1) }
    let stem = prefix(of: scalars[..<dot], maximumBytes: maximumByteCount - extBytes - 2)
    return String(Substring(stem)) + "." + String(Substring(ext))
  }

  /// The longest prefix of `scalars` that fits in `maximumBytes` of UTF-8.
  private static func prefix(of scalars: Substring.UnicodeScalarView, maximumBytes: Int)
    -> Substring.UnicodeScalarView
  {
    var byteCount = 0
    var end = scalars.startIndex
    for index in scalars.indices {
      let width = UTF8.width(scalars[index])
      if byteCount + width > maximumBytes { break }
      byteCount += width
      end = scalars.index(after: index)
    }
    return scalars[..<end]
  }
}
