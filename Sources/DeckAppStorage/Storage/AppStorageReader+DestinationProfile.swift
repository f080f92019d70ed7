import DeckCore
import Foundation

extension AppStorageReader {
  /// The built-in profile the app storage at `path` is made for, so that a deck written into it
  /// with ``AppProfileChoice/automatic`` goes in as reading would take it out: the profile the
  /// records it holds fit (a plist, a JSON file, deckport's SQLite schema), or, for a Core
  /// Data/SwiftData store, the profile whose record type an entity is, by its name and
  /// properties (Flashzilla's `Card` with `id`, `prompt`, `answer`), rows or none. Nil when the
  /// file does not exist or cannot be read (writing then says why), or holds nothing to tell by
  /// (an empty `[]`) or another shape.
  package func destinationProfile(path namedPath: String, kind: AppStorageKind?, options: AppStorageOptions)
    -> AppRecordProfile?
  {
    let path = FileManager.default.linkTarget(ofPath: namedPath)
    guard FileManager.default.fileExists(atPath: path), let kind = try? kind ?? AppStorageKind.detect(path: path)
    else { return nil }
    var reading = options
    reading.profile = .automatic
    guard kind == .coreData else {
      return (try? read(path: path, kind: kind, options: reading))?.records.profile
    }
    let location = SourceLocation(file: path)
    guard let snapshot = try? SQLiteSnapshot(of: path, location: location),
      let database = try? snapshot.open(location: location),
      let schema = try? CoreDataSchema(database: database, location: location)
    else { return nil }
    let entities = schema.entities.filter { entity in
      !entity.isAbstract && (options.entity.map { $0 == entity.name } ?? true)
    }
    return AppRecordProfile.all.first { profile in
      entities.contains { entity in
        (entities.count == 1 || profile.recordTypeNames.contains(entity.name))
          && profile.matches([AppRecord(fields: entity.members.map { .init(key: $0.key, value: .null) })])
      }
    }
  }
}
