import Foundation

/// How Core Data stores an attribute that allows external storage: its blob starts with a tag,
/// `0x01` followed by the bytes, or `0x02` followed by the ASCII UUID (and a NUL) of a file in the
/// folder `.<store name without extension>_SUPPORT/_EXTERNAL_DATA/` beside the store.
enum CoreDataExternalStorage {
  /// What a tagged blob holds.
  enum Content: Equatable {
    case inline(Data)
    /// The name of a file in the external-data folder.
    case file(String)
    /// Neither tag: not a blob of an external-storage attribute.
    case untagged
  }

  /// Values of at least this many bytes go to a file; smaller ones stay in the row. Core Data's
  /// own threshold is private; reports put it between 100 and 128 KiB, and either form reads back.
  static let fileThreshold = 128 * 1024

  static let inlineTag: UInt8 = 0x01
  static let fileTag: UInt8 = 0x02

  /// The content of a blob from an external-storage column. Old stores hold some values as an
  /// untagged binary plist, and an empty blob is empty data; both are taken as they are.
  static func decode(_ blob: Data) -> Content {
    guard let tag = blob.first else { return .inline(Data()) }
    switch tag {
    case inlineTag:
      return .inline(Data(blob.dropFirst()))
    case fileTag:
      guard blob.count >= 37, blob.count <= 64 else { return .untagged }
      let text = String(decoding: blob.dropFirst(), as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines.union(["\0"]))
      guard let uuid = UUID(uuidString: text), uuid.uuidString == text.uppercased() else { return .untagged }
      return .file(text)
    default:
      return blob.starts(with: Data("bplist0".utf8)) ? .inline(blob) : .untagged
    }
  }

  /// The blob for bytes kept in the row.
  static func inlineBlob(_ data: Data) -> Data { Data([inlineTag]) + data }

  /// The blob for bytes kept in the file `name` (an uppercase UUID string).
  static func fileBlob(_ name: String) -> Data { Data([fileTag]) + Data(name.utf8) + Data([0]) }

  /// The external-data folder of the store at `path`.
  static func folder(forStore path: String) -> URL {
    let store = URL(fileURLWithPath: path)
    let stem = store.deletingPathExtension().lastPathComponent
    return store.deletingLastPathComponent().appendingPathComponent(".\(stem)_SUPPORT").appendingPathComponent(
      "_EXTERNAL_DATA")
  }
}
