import DeckCore
import DeckIO
import Foundation

/// Writes the shared model as a deckport JSON deck document.
///
/// ```swift
/// try DeckJSONWriter().write(collection, to: "French.json")
/// ```
///
/// The same collection always gives the same bytes. Media are base64-encoded straight from their
/// source into the file, one chunk at a time.
public struct DeckJSONWriter: Sendable {
  /// Creates a writer.
  public init() {}

  /// Writes `collection` to `path` (created or replaced; callers wanting all-or-nothing output
  /// write to a temporary path and rename, as `DeckConverter` does). Errors name
  /// `reportingAs` when given (the final destination of a temporary file).
  ///
  /// - Throws: ``DeckError`` when a note cannot be keyed by field name (a note whose field count
  ///   differs from its note type's, or an unknown note type) or when writing fails.
  public func write(_ collection: DeckCollection, to path: String, reportingAs destination: String? = nil) throws {
    let document = try DeckJSONDocument(collection, location: SourceLocation(file: destination ?? path))
    var tree = try OrderedJSONEncoder().encode(document)
    tree = Self.streamingMedia(in: tree, blobs: collection.media.map(\.blob))
    try FileSink.writing(to: path) { sink in
      var writer = JSONTreeWriter(sink: sink)
      try writer.write(tree)
    }
  }

  /// `tree` with each `media[i].data` replaced by the blob it is streamed from.
  private static func streamingMedia(in tree: JSONTree, blobs: [MediaBlob]) -> JSONTree {
    guard case .object(var entries) = tree,
      let mediaIndex = entries.firstIndex(where: { $0.key == "media" }),
      case .array(let items) = entries[mediaIndex].value
    else { return tree }
    let streamed = zip(items, blobs).map { item, blob -> JSONTree in
      guard case .object(var fields) = item, let dataIndex = fields.firstIndex(where: { $0.key == "data" }) else {
        return item
      }
      fields[dataIndex].value = .base64(blob)
      return .object(fields)
    }
    entries[mediaIndex].value = .array(streamed)
    return .object(entries)
  }
}
