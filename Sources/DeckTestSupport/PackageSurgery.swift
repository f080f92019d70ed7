import DeckCore
import DeckIO
import Foundation

/// Builds damaged packages for tests: copies a good package member by member, replacing,
/// removing or adding members on the way.
public enum PackageSurgery {
  /// What to do to the members of a package.
  public struct Change: Sendable {
    /// Members to leave out.
    public var remove: Set<String> = []
    /// Members whose bytes to replace (or to add when absent).
    public var replace: [String: Data] = [:]
    /// Members to store deflated (level 1) rather than as they are.
    public var deflate: Set<String> = []

    /// Creates a change.
    public init(remove: Set<String> = [], replace: [String: Data] = [:], deflate: Set<String> = []) {
      self.remove = remove
      self.replace = replace
      self.deflate = deflate
    }
  }

  /// Writes to `destination` a copy of the package at `source` with `change` applied.
  public static func copy(_ source: String, to destination: String, applying change: Change) throws {
    let location = DeckCore.SourceLocation(file: source)
    let reader = try ZipReader(path: source, location: location)
    let writer = try ZipWriter(path: destination, location: DeckCore.SourceLocation(file: destination))
    for name in reader.entryNames where !change.remove.contains(name) {
      let data = try change.replace[name] ?? reader.readAll(name, limit: 1 << 30)
      try writer.addData(name: name, data: data, compression: change.compression(of: name))
    }
    for (name, data) in change.replace where !reader.contains(name) {
      try writer.addData(name: name, data: data, compression: change.compression(of: name))
    }
    try writer.close()
  }

  /// Writes to `destination` a copy of the package at `source` whose collection
  /// (`collection.anki21b` of the latest layout, zstd-compressed again; else `collection.anki21`,
  /// or `collection.anki2` in a package of the first generation) had `sql` run on it (to plant
  /// impossible values or hostile names, or a value no fixture has, in a real collection).
  public static func copy(_ source: String, to destination: String, runningOnCollection sql: String) throws {
    let scratch = try TemporaryDirectory()
    let location = DeckCore.SourceLocation(file: source)
    let latest = try? member("collection.anki21b", of: source)
    let (name, collection) =
      try latest.map { ("collection.anki21b", try Zstd.decompress($0, limit: 1 << 30, location: location)) }
      ?? (try? ("collection.anki21", member("collection.anki21", of: source)))
      ?? ("collection.anki2", member("collection.anki2", of: source))
    let databasePath = scratch.path(for: name)
    try collection.write(to: URL(fileURLWithPath: databasePath))
    do {
      // Closed at the end of the block, so that a collection in WAL mode (Anki's schema 18) has
      // the change in its main file.
      let database = try SQLiteDatabase(
        path: databasePath, readOnly: false, location: DeckCore.SourceLocation(file: databasePath))
      try database.execute(sql)
    }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: databasePath))
    if latest != nil {
      let compressor = ZstdCompressor(level: 3)
      var frame = Data()
      try bytes.withUnsafeBytes { try compressor.compress($0) { frame.append(contentsOf: $0) } }
      try compressor.finish { frame.append(contentsOf: $0) }
      bytes = frame
    }
    try copy(source, to: destination, applying: Change(replace: [name: bytes]))
  }

  /// A zstd frame of `count` zero bytes: a small member that decompresses to a lot.
  public static func zstdZeros(_ count: Int) throws -> Data {
    let compressor = ZstdCompressor(level: 1)
    var frame = Data()
    let chunk = [UInt8](repeating: 0, count: 1 << 20)
    var left = count
    while left > 0 {
      let size = min(left, chunk.count)
      try chunk.withUnsafeBytes { bytes in
        try compressor.compress(UnsafeRawBufferPointer(rebasing: bytes[0..<size])) { frame.append(contentsOf: $0) }
      }
      left -= size
    }
    try compressor.finish { frame.append(contentsOf: $0) }
    return frame
  }

  /// The bytes of one member of the package at `path`.
  public static func member(_ name: String, of path: String) throws -> Data {
    let reader = try ZipReader(path: path, location: DeckCore.SourceLocation(file: path))
    return try reader.readAll(name, limit: 1 << 30)
  }
}

extension PackageSurgery.Change {
  func compression(of name: String) -> ZipCompression {
    deflate.contains(name) ? .deflate(level: 1) : .stored
  }
}
