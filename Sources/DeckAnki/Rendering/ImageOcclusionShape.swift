import DeckCore
import Foundation

/// The `data-` attributes of an Image Occlusion shape (Anki's `get_image_cloze_data`), read from
/// the text after `image-occlusion:`, such as `rect:left=.1:top=.2:width=.3:height=.4:oi=1`.
enum ImageOcclusionShape {
  /// The shapes whose name becomes `data-shape`.
  static let knownShapes: Set<String> = ["rect", "ellipse", "polygon", "text"]

  /// The attributes, each followed by a space: `data-shape` for a known shape, then one for each
  /// property Anki knows, in the text's order (`oi` as `data-occludeInactive`, `fs` as
  /// `data-font-size`; `text` attribute-encoded, the others as written). Empty values are left
  /// out, and `0` for width, height, rx, ry and scale. Empty without a `:` after the shape.
  static func dataAttributes(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return "" }
    var result = ""
    let shape = String(decoding: bytes[..<colon], as: UTF8.self)
    if knownShapes.contains(shape) { result += "data-shape=\"\(shape)\" " }
    for (name, value) in properties(bytes[colon...]) {
      switch name {
      case "left", "top", "angle", "fill":
        if !value.isEmpty { result += "data-\(name)=\"\(value)\" " }
      case "width", "height", "rx", "ry", "scale":
        if !value.isEmpty && value != "0" { result += "data-\(name)=\"\(value)\" " }
      case "points":
        // Each space-separated piece with a comma is a point; the others are left out.
        let points = value.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
          .filter { $0.contains(UInt8(ascii: ",")) }
          .map { String(decoding: $0, as: UTF8.self) }
        if !points.isEmpty { result += "data-points=\"\(points.joined(separator: " "))\" " }
      case "oi":
        if !value.isEmpty { result += "data-occludeInactive=\"\(value)\" " }
      case "text":
        if !value.isEmpty { result += "data-text=\"\(AnkiCloze.encodingAttribute(value))\" " }
      case "fs":
        if !value.isEmpty { result += "data-font-size=\"\(value)\" " }
      default:
        break
      }
    }
    return result
  }

  /// The `:name=value` properties at the start of `bytes` (UTF-8), read as Anki reads them: a
  /// name is everything up to the next `=` (at least one byte); a value runs to the next `:` or
  /// the end, with `\:` and `\\` standing for `:` and `\`. Reading stops at the first property
  /// that does not parse: a value that is empty but not at the end, another character after a
  /// `\`, or a `\` at the end.
  static func properties(_ bytes: ArraySlice<UInt8>) -> [(name: String, value: String)] {
    var properties: [(name: String, value: String)] = []
    var index = bytes.startIndex
    while index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") {
      let nameStart = index + 1
      guard let equals = bytes[nameStart...].firstIndex(of: UInt8(ascii: "=")), equals > nameStart else { break }
      let valueStart = equals + 1
      var cursor = valueStart
      var value: [UInt8] = []
      var parsed = true
      while cursor < bytes.endIndex {
        let byte = bytes[cursor]
        if byte == UInt8(ascii: ":") {
          // A value may be empty only at the end of the text.
          if cursor == valueStart { parsed = false }
          break
        }
        if byte == UInt8(ascii: "\\") {
          guard cursor + 1 < bytes.endIndex,
            bytes[cursor + 1] == UInt8(ascii: ":") || bytes[cursor + 1] == UInt8(ascii: "\\")
          else {
            parsed = false
            break
          }
          value.append(bytes[cursor + 1])
          cursor += 2
        } else {
          value.append(byte)
          cursor += 1
        }
      }
      guard parsed else { break }
      properties.append(
        (String(decoding: bytes[nameStart..<equals], as: UTF8.self), String(decoding: value, as: UTF8.self)))
      index = cursor
    }
    return properties
  }
}
