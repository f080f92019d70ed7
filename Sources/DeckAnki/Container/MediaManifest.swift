import DeckCore
import DeckIO
import Foundation

/// One media file listed by a package's `media` member.
struct MediaManifestEntry: Equatable {
  /// The zip member holding the bytes (`"0"`, `"1"`, …).
  var member: String
  /// The file name notes refer to, as the manifest gives it.
  var name: String
  /// The uncompressed size, when the manifest declares it (Latest only).
  var size: Int64?
  /// The SHA-1 of the uncompressed bytes, when the manifest declares it (Latest only).
  var sha1: [UInt8]?
}

/// Reads the `media` member: a JSON object `{"0": "name", …}` in legacy packages, zstd-compressed
/// protobuf `MediaEntries` in Latest ones.
enum MediaManifest {
  static let member = "media"
  /// The largest manifest read; a manifest of 100,000 entries is about 5 MB.
  static let sizeLimit: Int64 = 256 << 20

  /// The entries of the package's manifest, in manifest order.
  ///
  /// A legacy package without a `media` member has no media, as Anki treats it; a Latest
  /// package must have one (Anki refuses it otherwise), so its absence is an error.
  static func entries(
    in zip: ZipReader, generation: AnkiPackageGeneration, location: SourceLocation
  ) throws -> [MediaManifestEntry] {
    let manifestLocation = location.member(member)
    guard zip.contains(member) else {
      if generation == .latest {
        throw DeckError(
          .missingPart, at: manifestLocation,
          "the media map is missing; a package of the latest generation must have one, even when empty")
      }
      return []
    }
    let raw = try zip.readAll(member, limit: sizeLimit)
    switch generation {
    case .latest:
      let decoded = try Zstd.decompress(raw, limit: sizeLimit, location: manifestLocation)
      return try protobufEntries(decoded, location: manifestLocation)
    case .legacy1, .legacy2:
      return try jsonEntries(raw, location: manifestLocation)
    }
  }

  /// `MediaEntries { repeated MediaEntry entries = 1; }`,
  /// `MediaEntry { string name = 1; uint32 size = 2; bytes sha1 = 3; }`; entry *i* is member "i".
  static func protobufEntries(_ bytes: Data, location: SourceLocation) throws
    -> [MediaManifestEntry]
  {
    var reader = ProtobufReader(bytes, location: location)
    var entries: [MediaManifestEntry] = []
    while let field = try reader.nextField() {
      guard field.number == 1, field.wireType == .lengthDelimited else {
        try reader.skip(field.wireType)
        continue
      }
      let index = entries.count
      let entryLocation = location.item("entry \(index)")
      var entryReader = ProtobufReader(try reader.readLengthDelimited(), location: entryLocation)
      var entry = MediaManifestEntry(member: String(index), name: "", size: 0, sha1: nil)
      while let entryField = try entryReader.nextField() {
        switch (entryField.number, entryField.wireType) {
        case (1, .lengthDelimited): entry.name = try entryReader.readString()
        case (2, .varint): entry.size = Int64(try entryReader.readUInt32())
        case (3, .lengthDelimited): entry.sha1 = [UInt8](try entryReader.readLengthDelimited())
        default: try entryReader.skip(entryField.wireType)
        }
      }
      guard entry.sha1?.count == 20 else {
        throw DeckError(
          .corrupt, at: entryLocation,
          "media entry '\(entry.name)' has a SHA-1 of \(entry.sha1?.count ?? 0) bytes; it must have 20")
      }
      entries.append(entry)
    }
    return entries
  }

  /// The legacy JSON object mapping member numbers to file names.
  static func jsonEntries(_ bytes: Data, location: SourceLocation) throws -> [MediaManifestEntry] {
    let object: Any
    do {
      object = try FoundationJSON.object(bytes)
    } catch {
      throw DeckError(.corrupt, at: location, "the media map is \(FoundationJSON.invalid(error))")
    }
    guard let map = object as? [String: Any] else {
      throw DeckError(.corrupt, at: location, "the media map is not a JSON object of member numbers to file names")
    }
    var entries: [MediaManifestEntry] = []
    for (key, value) in map {
      // Anki parses a key as an unsigned number (a leading `+` or `0`s allowed: `"01"` and `"+1"`
      // name member `1`) and opens the member its decimal form names.
      guard key.first != "-", let number = UInt64(key) else {
        throw DeckError(
          .corrupt, at: location.item("key \"\(key)\""),
          "media map key \"\(key)\" is not a member number")
      }
      guard let name = value as? String else {
        throw DeckError(
          .corrupt, at: location.item("key \"\(key)\""),
          "media map entry \(key) is not a file name string")
      }
      entries.append(MediaManifestEntry(member: String(number), name: name))
    }
    // Anki writes the map from a hash map; number order is the order the files were written.
    return entries.sorted { UInt64($0.member) ?? 0 < UInt64($1.member) ?? 0 }
  }
}
