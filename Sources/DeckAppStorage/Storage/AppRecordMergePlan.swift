import DeckCore
import Foundation

/// The records a write brings, matched with those the destination holds (``AppRecordMatching``):
/// which are added, which update a held record, which change nothing.
struct AppRecordMergePlan {
  /// A record to write: new, or the new content of a held record.
  struct Change {
    /// The record's position among those being written.
    var incomingIndex: Int
    /// The content to store: the new record, or the held record with the new values applied.
    var record: AppRecord
    /// The held record's position, when this updates one.
    var existingIndex: Int?
    /// The held record's key in its storage (Core Data `Z_PK`), when this updates one.
    var existingKey: Int64?
  }

  /// The additions and updates, in the order of the records being written.
  var changes: [Change] = []
  var summary = AppRecordMergeSummary()
  /// Every record the destination holds afterwards: the held ones (updated in place) and then
  /// the added ones.
  var merged: [AppRecord] = []
  /// For each record being written, the position of the held record it matched (updated,
  /// unchanged or skipped), or nil when it is added.
  var matchedExisting: [Int?] = []

  /// Matches `incoming` with `existing` (whose storage keys, if any, are `existingKeys`).
  ///
  /// - Parameter noteText: for records typed from a deck's note text (``NoteTextTyping``), that
  ///   text. Records are then matched by the text their values show in a deck
  ///   (``AppValue/noteText``, empty and absent alike), so `7b57…` and `7B57…` are one UUID,
  ///   and a held value whose shown text the note did not change is kept as stored, to the last
  ///   digit of a date's fraction of a second.
  /// - Parameter knownRows: records being written that are known to be held ones, by position
  ///   (a note made from a store's row, by its GUID: ``NoteIdentity/guid(ofObject:)``); they are
  ///   matched with those, whatever their values, and the others with the rest.
  /// - Parameter heldDates: the JSON date encoding of the held records, when they are written
  ///   back in it: a held value that names the same date (to the millisecond) as the date
  ///   replacing it is kept as stored, so `"2023-01-01T12:00:00.123+02:00"` stays that text.
  /// - Throws: ``DeckError`` with policy ``ExistingRecordPolicy/fail`` when a record matches.
  init(
    existing: [AppRecord], existingKeys: [Int64], incoming: AppRecords, matching: AppRecordMatching,
    location: SourceLocation, noteText: NoteTextComparison? = nil, knownRows: [Int: Int] = [:],
    heldDates: JSONDateEncoding? = nil
  ) throws {
    merged = existing
    let keys = matching.keys ?? incoming.profile?.identityKeys
    let unordered = noteText?.unorderedKeys ?? []
    func compared(_ record: AppRecord) -> AppRecord {
      noteText == nil ? record : Self.asNoteText(record, unordered: unordered)
    }
    // Each held record matches at most one record being written: two equal records being
    // written are two records, so the second matches the next held one with that identity.
    let known = Set(knownRows.values)
    var index: [AppRecordIdentity: [Int]] = [:]
    for (position, record) in existing.enumerated() where !known.contains(position) {
      index[AppRecordIdentity(compared(record), keys: keys), default: []].append(position)
    }
    matchedExisting = Array(repeating: nil, count: incoming.records.count)
    let creation = NoteIDDates(incoming)
    for (position, record) in incoming.records.enumerated() {
      let identity = AppRecordIdentity(compared(record), keys: keys)
      let byIdentity = index[identity]?.first
      guard matching.policy != .add, let held = knownRows[position] ?? byIdentity else {
        changes.append(Change(incomingIndex: position, record: record))
        merged.append(record)
        summary.added += 1
        continue
      }
      if matching.policy == .fail {
        let by =
          knownRows[position] != nil
          ? "the note's GUID, made from the row"
          : identity.wholeRecord ? "its content" : "its \((keys ?? []).joined(separator: " and "))"
        throw DeckError(
          .invalidRequest, at: location.item(incoming.label(ofRecord: position)),
          "matches a record the destination already holds (by \(by)); refusing, as \(setting: .existingRecords) fail asks"
        )
      }
      if knownRows[position] == nil { index[identity]?.removeFirst() }
      matchedExisting[position] = held
      var updated = existing[held]
      if let noteText {
        let heldText = compared(existing[held])
        let incomingText = compared(record)
        for field in noteText.text[position] {
          let value = record[field.key]
          if value == nil, noteText.keptWhenEmpty.contains(field.key) { continue }
          if incomingText[field.key] != heldText[field.key] { updated[field.key] = value }
        }
      } else {
        for field in record {
          if let heldValue = updated[field.key],
            Self.names(field.value, asStored: heldValue, heldDates: heldDates)
              || creation?.isMoved(field, from: heldValue, heldDates: heldDates) == true
          {
            continue
          }
          updated[field.key] = field.value
        }
      }
      if updated == existing[held] {
        summary.unchanged += 1
      } else if matching.policy == .skip {
        summary.skipped += 1
      } else {
        changes.append(
          Change(
            incomingIndex: position, record: updated, existingIndex: held,
            existingKey: held < existingKeys.count ? existingKeys[held] : nil))
        merged[held] = updated
        summary.updated += 1
      }
    }
  }

  /// Whether `held` is `incoming` as the destination spells it, and so is kept: the same UUID in
  /// other case (``AppValue/identityValue``), or, when the held records are written back in
  /// their JSON date encoding (`heldDates`), a value of it naming the same date to the
  /// millisecond a note's id keeps.
  private static func names(_ incoming: AppValue, asStored held: AppValue, heldDates: JSONDateEncoding?) -> Bool {
    guard held != incoming else { return false }
    if case .uuid = incoming { return held.identityValue == incoming }
    guard case .date(let date) = incoming, let heldDates else { return false }
    // What the file would be written with is what it holds (a whole second of `.iso8601`).
    if heldDates.encode(date) == held { return true }
    let heldDate: Date?
    if case .date(let stored) = held { heldDate = stored } else { heldDate = heldDates.date(in: held) }
    guard let heldDate else { return false }
    return (heldDate.timeIntervalSince1970 * 1000).rounded() == (date.timeIntervalSince1970 * 1000).rounded()
  }

  /// `record` as a deck shows it: each value as its note text, data as it is, and no key whose
  /// text is empty; the items of an `unordered` key's array in the order of their text.
  private static func asNoteText(_ record: AppRecord, unordered: Set<String>) -> AppRecord {
    AppRecord(
      fields: record.compactMap { field in
        var value = field.value
        if unordered.contains(field.key), case .array(let items) = value {
          value = .array(items.sorted { ($0.noteText ?? "") < ($1.noteText ?? "") })
        }
        return shown(value).map { .init(key: field.key, value: $0) }
      })
  }

  /// A value as a deck shows it: its note text, or the data itself; nil when the text is empty.
  private static func shown(_ value: AppValue) -> AppValue? {
    guard let text = value.noteText else { return value }
    return text.isEmpty ? nil : .string(text)
  }
}

/// The creation dates of records made from a deck's notes whose profile takes them from the
/// note ids (Flashcard Quiz's `createdAt`). Note ids are unique, so notes made from records of
/// one millisecond got the next free ids (`…500`, `…501`, `…502`); a record whose date is later
/// than its held record's by milliseconds each of which another note's id takes is that held
/// record moved, and keeps the held date, so a store → deck → the same store changes nothing.
private struct NoteIDDates {
  let key: String
  /// The milliseconds since 1970 the records' dates name: the note ids.
  let taken: Set<Int64>

  init?(_ records: AppRecords) {
    guard records.creationDatesAreNoteIDs,
      let key = records.profile?.fields.first(where: { $0.role == .noteCreation })?.key
    else { return nil }
    // Compared without case, as Core Data columns lose it (`createdat` in a store without a
    // model cache).
    let lowered = key.lowercased()
    self.key = lowered
    taken = Set(
      records.records.compactMap { record in
        record.first { $0.key.lowercased() == lowered }.flatMap { Self.milliseconds($0.value) }
      })
  }

  /// Whether `field`, the creation date of a record being written, is `held`'s date moved on by
  /// notes of the same millisecond (a held value of `heldDates` names its date).
  func isMoved(_ field: AppRecord.Field, from held: AppValue, heldDates: JSONDateEncoding?) -> Bool {
    guard field.key.lowercased() == key, let incoming = Self.milliseconds(field.value) else { return false }
    let heldDate: Date?
    switch held {
    case .date(let date): heldDate = date
    default: heldDate = heldDates?.date(in: held)
    }
    guard let heldDate, let original = Self.milliseconds(.date(heldDate)), original < incoming,
      incoming - original <= Int64(taken.count)
    else { return false }
    return (original..<incoming).allSatisfy(taken.contains)
  }

  private static func milliseconds(_ value: AppValue) -> Int64? {
    guard case .date(let date) = value else { return nil }
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    return milliseconds.isFinite && abs(milliseconds) < 9e15 ? Int64(milliseconds) : nil
  }
}

/// How records typed from a deck's note text are compared with the records a destination holds
/// (``AppRecordMergePlan/init(existing:existingKeys:incoming:matching:location:noteText:)``).
struct NoteTextComparison {
  /// The note text, record for record: its keys are the fields the deck has, emptied ones
  /// included.
  var text: [AppRecord]
  /// Keys whose emptied text keeps what a held record has (a required attribute, which cannot
  /// be empty and would otherwise get a new value on every write).
  var keptWhenEmpty: Set<String> = []
  /// Keys whose arrays are sets, their order meaning nothing (a to-many relationship that is not
  /// ordered): the same items in another order change nothing.
  var unorderedKeys: Set<String> = []
}

/// The values that identify a record: those of the identity keys (compared without regard to
/// key case, as Core Data columns lose it), or the whole record, its keys in any order (a store
/// gives them in its model's order, a deck in its note type's).
///
/// A record with no value under any identity key (an Idealic log without title and text, a row
/// whose unique attribute is NULL) has no identity there: it is identified by its whole content,
/// as records are without identity keys. So is a record with no keys at all (`{}`, a row whose
/// every attribute is NULL): it is the same record as a held `{}`, and a second import of it
/// changes nothing, as for any other record.
private struct AppRecordIdentity: Hashable {
  /// Whether the values are the whole record's (its keys and values), not identity keys' values.
  let wholeRecord: Bool
  let values: [AppValue]

  init(_ record: AppRecord, keys: [String]?) {
    if let keys {
      let identity = keys.map { key in
        (record[key] ?? record.first(where: { $0.key.lowercased() == key.lowercased() })?.value ?? .null).identityValue
      }
      if !identity.allSatisfy(\.isNull) {
        wholeRecord = false
        values = identity
        return
      }
    }
    wholeRecord = true
    values = record.fields.sorted { $0.key < $1.key }.flatMap { [AppValue.string($0.key), $0.value] }
  }
}
