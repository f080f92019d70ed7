/// A problem in a property list's bytes: what is wrong, and where (a byte offset in a binary
/// plist, a line in an XML plist).
package struct PlistFormatError: Error {
  /// What is wrong.
  package var message: String
  /// The byte where the problem is, in a binary plist (or 0 for bytes that are no plist at all).
  package var byteOffset: Int?
  /// The line where the problem is, in an XML plist.
  package var line: Int?

  /// An error saying `message` at `byteOffset` or `line`.
  package init(message: String, byteOffset: Int? = nil, line: Int? = nil) {
    self.message = message
    self.byteOffset = byteOffset
    self.line = line
  }

  /// The message with its position: `byte 112: …` or `line 7: …`.
  package var text: String {
    if let line { return "line \(line): \(message)" }
    if let byteOffset { return "byte \(byteOffset): \(message)" }
    return message
  }
}
