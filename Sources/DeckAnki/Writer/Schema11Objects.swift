import DeckCore
import Foundation
import JSONCore

/// Note types and option groups as the schema-11 JSON objects Anki's legacy collections hold,
/// for other deckport modules whose formats embed those objects (CrowdAnki's `NoteModel` and
/// `DeckConfig` are the same dictionaries): one mapping, shared, instead of a second one.
package enum Schema11Objects {
  /// The schema-11 object of `noteType`, with every key the Anki writer writes (`req` included).
  package static func noteType(_ noteType: NoteType) -> [String: Any] {
    object(from: Schema11JSON.noteType(noteType))
  }

  /// The schema-11 `dconf` object of `options` (converted from a schema-18 protobuf when that is
  /// how the source stored it), and what the conversion could not carry over.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at `location` when the stored settings cannot be read.
  package static func deckOptions(_ options: DeckOptions, location: SourceLocation) throws
    -> (object: [String: Any], warnings: [Diagnostic])
  {
    let (json, warnings) = try DeckOptionsConversion.entry(for: options, location: location)
    return (object(from: json), warnings)
  }

  /// The note type a schema-11 object describes (see ``Schema11Config/noteType(_:id:label:at:)``).
  package static func noteType(
    from object: [String: Any], id: Int64, label: String, at location: SourceLocation
  ) throws -> NoteType {
    try Schema11Config.noteType(object, id: id, label: label, at: location)
  }

  /// The keys of a schema-11 note type, field and template that ``noteType(from:id:label:at:)``
  /// reads into the model or that Anki derives again (`req`, `usn`, `did`).
  package static let noteTypeKeys = Schema11Properties.ownedKeys(of: .noteType).union(
    Schema11Properties.noteTypeDefaults.map(\.key))
  /// See ``noteTypeKeys``.
  package static let fieldKeys = Schema11Properties.ownedKeys(of: .field)
  /// See ``noteTypeKeys``.
  package static let templateKeys = Schema11Properties.ownedKeys(of: .template)

  private static func object(from value: JSONValue) -> [String: Any] {
    value.foundationObject as? [String: Any] ?? [:]
  }
}
