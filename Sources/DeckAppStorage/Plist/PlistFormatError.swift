/// A problem in a property list's bytes: what is wrong, and where (a byte offset in a binary
/// plist, a line in an XML plist).
struct PlistFormatError: Error {
  var message: String
  var byteOffset: Int?
  var line: Int?

  /// The message with its position: `byte 112: …` or `line 7: …`.
  var text: String {
    if let line { return "line \(line): \(message)" }
    if let byteOffset { return "byte \(byteOffset): \(message)" }
    return message
  }
}
