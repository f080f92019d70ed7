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

  /// The note type a schema-11 object describes (see ``Schema11Config/noteType(_:id:label:at:)``),
  /// with what Anki keeps of it, its fields and its templates besides their content
  /// (``AnkiProperty`` values, from `members`, the same object's members as written).
  package static func noteType(
    from object: [String: Any], members: [(key: String, value: JSONValue)], id: Int64, label: String,
    at location: SourceLocation
  ) throws -> NoteType {
    Schema11Config.withProperties(
      try Schema11Config.noteType(object, id: id, label: label, at: location), from: members)
  }

  /// What Anki keeps of a normal deck besides its content (``AnkiProperty`` values) among the
  /// `members` of its schema-11 object as CrowdAnki's export writes it: each member the model
  /// does not own whose value is not the one a new deck has. The members CrowdAnki's export
  /// leaves out (whether the deck is collapsed) are no property: its import keeps what the deck
  /// had.
  package static func deckProperties(_ members: [(key: String, value: JSONValue)]) -> [AnkiProperty] {
    Schema11Properties.properties(members, of: .normalDeck, absentKeysAsAnkiReads: false)
  }

  /// `collection` without the ``AnkiProperty`` values a schema-11 object cannot take: those
  /// under a key the model's own data is written under, and those whose text is not JSON; each
  /// is named by an `anki-property-invalid` warning (as an Anki package's writer names it).
  package static func withWritableProperties(_ collection: DeckCollection, location: SourceLocation)
    -> (collection: DeckCollection, warnings: [Diagnostic])
  {
    var log = DiagnosticLog()
    let result = PackageSelection.withWritableProperties(collection, location: location, log: &log)
    return (result, log.finished())
  }

  private static func object(from value: JSONValue) -> [String: Any] {
    value.foundationObject as? [String: Any] ?? [:]
  }
}
