import Foundation

/// A property-list file as deckport reads and writes it: its format, its top value, and for XML
/// the layout that lets one key be replaced in place.
package struct PlistDocument {
  /// The encoding of a plist file.
  package enum Format: String {
    /// `bplist00`.
    case binary
    /// Apple's XML property list DTD.
    case xml

    /// "a binary plist", "an XML plist".
    package var phrase: String { self == .binary ? "a binary plist" : "an XML plist" }
  }

  /// Binary or XML.
  package var format: Format
  /// The top value (a dictionary for a UserDefaults domain).
  package var root: PlistValue
  private var layout: XMLPlistLayout?

  /// A new document.
  package init(format: Format, root: PlistValue) {
    self.format = format
    self.root = root
    self.layout = nil
  }

  /// Parses a plist file's bytes.
  ///
  /// - Throws: ``PlistFormatError`` naming the byte (binary) or line (XML) of the first problem,
  ///   or saying why the bytes are not a plist deckport reads (OpenStep text, JSON, anything else).
  package init(data: Data) throws(PlistFormatError) {
    if data.starts(with: BinaryPlistReader.magic) {
      format = .binary
      root = try BinaryPlistReader.read(data)
      layout = nil
    } else if XMLPlistReader.looksLikeXMLPlist(data) {
      format = .xml
      let (value, parsedLayout) = try XMLPlistReader.read(data)
      root = value
      layout = parsedLayout
    } else {
      throw PlistFormatError(message: Self.whatItIs(data), byteOffset: 0)
    }
  }

  /// The file's bytes after setting the top-level dictionary's `key` to `value`: an XML file is
  /// edited in place (every other byte kept), a binary file is written again with every other
  /// key and value unchanged and in the same order.
  ///
  /// - Throws: ``XMLPlistWriter/Unrepresentable`` whose path starts at the top-level dictionary
  ///   (its first step is `key`).
  package func replacing(key: String, with value: PlistValue) throws(XMLPlistWriter.Unrepresentable) -> Data {
    if format == .xml, let layout,
      let edited = try layout.replacing(
        key: key, with: try XMLPlistWriter.element(value, depth: 1, path: [.key(key)]))
    {
      return Data(edited)
    }
    var copy = self
    if case .dictionary(var dictionary) = root {
      dictionary[key] = value
      copy.root = .dictionary(dictionary)
    } else {
      copy.root = .dictionary(PlistDictionary([.init(key: key, value: value)]))
    }
    return try copy.data()
  }

  /// The whole document written in its format.
  package func data() throws(XMLPlistWriter.Unrepresentable) -> Data {
    switch format {
    case .binary: BinaryPlistWriter.data(root)
    case .xml: try XMLPlistWriter.data(root)
    }
  }

  /// A description of bytes that are not a plist deckport reads.
  private static func whatItIs(_ data: Data) -> String {
    if data.isEmpty { return "not a property list (the file is empty)" }
    let head = String(decoding: data.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if head.hasPrefix("[") || head.hasPrefix("{\"") { return "not a property list (it looks like JSON)" }
    if head.hasPrefix("{") || head.hasPrefix("(") {
      return
        "an OpenStep (old-style text) property list, which deckport does not read; convert it with `plutil -convert xml1`"
    }
    if data.starts(with: Array("SQLite format 3".utf8)) { return "not a property list (it is an SQLite database)" }
    return "not a property list (neither a binary plist starting with 'bplist00' nor an XML plist)"
  }
}
