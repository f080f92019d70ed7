import DeckCore
import DeckIO
import Foundation

/// Decides which collection member of a package holds the content, exactly as current Anki
/// decides: `meta` when present (1, 2 or 3; anything else is refused), otherwise
/// `collection.anki21` before `collection.anki2`.
enum PackageLayout {
  /// The name of the version member.
  static let metaMember = "meta"
  /// The largest `meta` member read; Anki's is two bytes.
  static let metaSizeLimit: Int64 = 1 << 16

  /// The generation of the package open in `zip`.
  static func generation(of zip: ZipReader, location: SourceLocation) throws
    -> AnkiPackageGeneration
  {
    guard zip.contains(metaMember) else {
      for generation in [AnkiPackageGeneration.legacy2, .legacy1]
      where zip.contains(generation.collectionMember) {
        return generation
      }
      throw DeckError(
        .missingPart, at: location,
        "not an Anki package: it has none of the members 'meta', 'collection.anki21' or 'collection.anki2'")
    }
    let metaLocation = location.member(metaMember)
    let bytes = try zip.readAll(metaMember, limit: metaSizeLimit)
    let version = try PackageMetadata.version(decoding: bytes, location: metaLocation)
    let generation: AnkiPackageGeneration
    switch version {
    case 1: generation = .legacy1
    case 2: generation = .legacy2
    case 3: generation = .latest
    default:
      throw DeckError(
        .unsupportedVersion, at: metaLocation,
        "package version \(version) is unknown (known: 1, 2, 3); it needs a newer reader, as Anki says: \"This collection requires a newer version of Anki to open.\""
      )
    }
    guard zip.contains(generation.collectionMember) else {
      throw DeckError(
        .missingPart, at: metaLocation,
        "'meta' says package version \(version), but the member '\(generation.collectionMember)' it requires is missing"
      )
    }
    return generation
  }
}

/// The `meta` member: protobuf `anki.import_export.PackageMetadata { Version version = 1; }`.
enum PackageMetadata {
  /// The version number stored in `bytes` (0 when the field is absent, as proto3 defines).
  static func version(decoding bytes: Data, location: SourceLocation) throws -> UInt64 {
    var reader = ProtobufReader(bytes, location: location)
    var version: UInt64 = 0
    while let field = try reader.nextField() {
      if field.number == 1 && field.wireType == .varint {
        version = try reader.readVarint()
      } else {
        try reader.skip(field.wireType)
      }
    }
    return version
  }
}
