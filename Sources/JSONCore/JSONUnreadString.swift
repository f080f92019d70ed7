/// Bytes a parse read that stay readable as long as anything refers to them: a file mapped into
/// memory, say. A ``JSONUnreadString`` keeps its source alive.
package protocol JSONSource: AnyObject, Sendable {
  /// The JSON text.
  var bytes: UnsafeRawBufferPointer { get }
}

/// A string the parser checked but did not decode, because its text is long (see
/// ``JSONParser/parse(source:leavingStringsFrom:options:)``): where it lies in its source, so that
/// a reader can decode it the way it needs (base64 straight into a file, say) without holding it
/// as a `String` first.
package struct JSONUnreadString: Sendable {
  /// The text it lies in.
  package let source: any JSONSource
  /// The offset of its opening quote.
  package let start: Int
  /// The offset after its closing quote.
  package let end: Int

  /// The string's text between the quotes, as the source has it (escapes not resolved).
  package var rawText: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: source.bytes[(start + 1)..<(end - 1)])
  }

  /// The string, its escapes resolved. The parser checked it, so decoding it again does not fail.
  package var text: String {
    (try? JSONParser.string(in: source.bytes, at: start))?.value ?? ""
  }
}
