import DeckCore
import DeckIO
import Foundation
import PlistCodec

/// The ways an app keeps its records on disk.
///
/// The raw values are the names the CLI prints and `--from`/`--to`-style options take.
public enum AppStorageKind: String, Sendable, Hashable, CaseIterable {
  /// A property list (a UserDefaults domain `.plist`), binary or XML.
  case plist
  /// A JSON file holding an array of records (Flashzilla's `cards.json`).
  case jsonFile = "json"
  /// An SQLite file in deckport's schema for app records (see docs/app-storage.md).
  case sqlite
  /// A Core Data or SwiftData store (`default.store`, any SQLite file with `Z_PRIMARYKEY`).
  case coreData = "core-data"

  /// How messages name the kind.
  public var displayName: String {
    switch self {
    case .plist: "plist"
    case .jsonFile: "JSON file"
    case .sqlite: "deckport SQLite"
    case .coreData: "Core Data/SwiftData store"
    }
  }

  /// The kind of the file at `path`: from its content when it exists (a plist, JSON, an SQLite
  /// database of a known layout), else from its extension (`.plist`, `.json`,
  /// `.sqlite`/`.sqlite3`/`.db`, `.store`). A `.plist` or `.json` file whose content is neither is
  /// taken for what its extension says, so its reader reports what is wrong with it.
  ///
  /// - Throws: ``DeckError`` when an existing file is none of the kinds (naming what it is: a
  ///   deckport deck document, an SQLite file of an unknown layout, …), or when a missing file's
  ///   extension does not tell.
  public static func detect(path: String) throws -> AppStorageKind {
    let location = SourceLocation(file: path)
    guard FileManager.default.fileExists(atPath: path) else {
      if let kind = fromExtension(path) { return kind }
      throw DeckError(
        .invalidRequest, at: location,
        "cannot tell the storage kind from the name; use .plist, .json, .sqlite, .db or .store")
    }
    let head: Data
    do {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      head = try handle.read(upToCount: 512) ?? Data()
    } catch {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(error.localizedDescription))")
    }
    if head.starts(with: Array("SQLite format 3\0".utf8)) { return try SQLiteLayout.detect(path: path).kind }
    if head.starts(with: BinaryPlistReader.magic) || XMLPlistReader.looksLikeXMLPlist(head) { return .plist }
    let text = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines.union(["\u{FEFF}"]))
    // Text starting like JSON is JSON, unless the name says plist (OpenStep text also starts so).
    if text.hasPrefix("[") || text.hasPrefix("{") { return fromExtension(path) == .plist ? .plist : .jsonFile }
    if head.isEmpty { throw DeckError(.corrupt, at: location, "the file is empty") }
    // Content of no known kind: the extension's reader says best what is wrong with it.
    if let kind = fromExtension(path), kind == .plist || kind == .jsonFile { return kind }
    throw DeckError(
      .wrongFormat, at: location,
      "not app storage deckport knows (not a plist, a JSON file of records, or an SQLite database)")
  }

  /// The kind an extension names, or nil.
  static func fromExtension(_ path: String) -> AppStorageKind? {
    switch (path as NSString).pathExtension.lowercased() {
    case "plist": .plist
    case "json": .jsonFile
    case "sqlite", "sqlite3", "db": .sqlite
    case "store": .coreData
    default: nil
    }
  }
}
