import DeckCore
import Foundation

/// How a note and the record it was made from know each other: the UUID a note's GUID gives a
/// record's UUID identity (Flashzilla's `id`), the same for the same GUID every time, so
/// converting a deck twice gives the same ids and the app's records match on a second import;
/// and the GUID a store's row gives its note.
enum NoteIdentity {
  /// The UUID the GUID is, in any spelling `UUID(uuidString:)` takes (`e621e1f8-…` in lower case
  /// is the app's `E621E1F8-…`: a record's id read from a file keeps its UUID), else a UUID
  /// derived from it.
  static func uuid(forGUID guid: String) -> UUID {
    UUID(uuidString: guid) ?? derivedUUID(guid)
  }

  /// A version-5-style UUID from the SHA-1 of a fixed namespace string and the GUID.
  static func derivedUUID(_ guid: String) -> UUID {
    UUID(nameBasedOn: Data("deckport-guid\u{1F}\(guid)".utf8))
  }

  /// The GUID of the note made from the Core Data object `uri` (`x-coredata://STORE/Entity/pN`):
  /// the row's identity for as long as it lives in its store (Core Data never gives its key to
  /// another row), whatever its values become. So a deck made again from the store after the app
  /// changed a card updates that note on Anki's import, and the note, edited anywhere, goes back
  /// into the row it came from.
  static func guid(ofObject uri: String) -> String {
    DerivedID.guid(for: ["deckport-object", uri])
  }

  /// For each note made from one of `held` (each note's GUID against the GUID each held record's
  /// note gets, ``RecordsToDeck/noteGUIDs()``), the held record's position, by the note's
  /// position. A GUID that could name another held record (an identity several share) names
  /// none, and a GUID given twice takes its record once.
  static func rows(ofNotes guids: [String], in held: AppRecords) -> [Int: Int] {
    guard !guids.isEmpty, !held.records.isEmpty else { return [:] }
    let heldGUIDs = RecordsToDeck(records: held, profile: nil).noteGUIDs()
    var rowByGUID = Dictionary(
      heldGUIDs.enumerated().filter(\.element.unambiguous).map { (ExactKey($0.element.guid), $0.offset) },
      uniquingKeysWith: { first, _ in first })
    var rows: [Int: Int] = [:]
    for (position, guid) in guids.enumerated() {
      if let row = rowByGUID.removeValue(forKey: ExactKey(guid)) { rows[position] = row }
    }
    return rows
  }
}
