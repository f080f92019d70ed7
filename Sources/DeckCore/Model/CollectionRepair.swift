/// The repairs a writer makes to references that point nowhere and to notes whose field count
/// differs from their note type's, so that what it writes can be read back (by deckport and by
/// Anki) and nothing is lost: each is the repair Anki's own Check Database makes.
///
/// - A note with fewer field values than its note type has fields gets empty values for the
///   missing fields.
/// - A note with more field values keeps them all: the values from the note type's last field on
///   are joined with `"; "` into that last field.
/// - A card whose note does not exist is left out (it has no content to show).
/// - A card in a deck the collection does not define gets a deck of its own with that id, named
///   `recovered<id>`.
///
/// Each change is reported as a warning naming the note or card (`field-count`, `orphan-card`,
/// `unknown-deck`). Notes whose note type does not exist are left as they are:
/// a writer that needs the note type refuses them. Filling notes with more empty values than
/// ``FieldFilling`` allows for the notes' text throws instead.
///
/// ```swift
/// let (repaired, warnings) = try CollectionRepair.repaired(collection, location: SourceLocation(file: "out.json"))
/// ```
package enum CollectionRepair {
  /// How many warnings of one category are listed one by one before the rest are counted.
  package static let listedPerCategory = 20

  /// The separator Anki's Check Database puts between the values it joins into a note's last field.
  package static let joinedFieldSeparator = "; "

  /// `collection` repaired as described above, and a warning for each change.
  package static func repaired(
    _ collection: DeckCollection, location: SourceLocation
  ) throws(DeckError) -> (collection: DeckCollection, warnings: [Diagnostic]) {
    var (result, warnings) = try withFittedNotes(collection, location: location)
    var noteIDs = IDSet(collection.notes.map(\.id))
    if collection.cards.contains(where: { !noteIDs.contains($0.noteID) }) {
      result.cards.removeAll { card in
        guard !noteIDs.contains(card.noteID) else { return false }
        warnings.report(
          .orphanCard, at: location.itemPart("card \(card.id)"),
          "card belongs to note \(card.noteID), which does not exist; it is left out")
        return true
      }
    }
    result.decks = decks(for: result.cards, in: collection, location: location, warnings: &warnings)
    return (result, warnings.finished())
  }

  /// `collection` with only its notes' field counts repaired (for writers that hold notes but no
  /// cards or decks), and a warning for each note changed.
  package static func fittingFields(
    _ collection: DeckCollection, location: SourceLocation
  ) throws(DeckError) -> (collection: DeckCollection, warnings: [Diagnostic]) {
    let (result, warnings) = try withFittedNotes(collection, location: location)
    return (result, warnings.finished())
  }

  /// `collection` with its notes' field counts repaired, and the warnings so far.
  private static func withFittedNotes(
    _ collection: DeckCollection, location: SourceLocation
  ) throws(DeckError) -> (collection: DeckCollection, warnings: CappedWarnings) {
    var warnings = CappedWarnings(location: location, listedPerCategory: listedPerCategory)
    var result = collection
    result.notes = try fittedNotes(collection, location: location, warnings: &warnings)
    return (result, warnings)
  }

  /// `values` fitted to `count` fields as Anki's Check Database fits them: padded with empty
  /// values, or the values from the last field on joined with `"; "`.
  package static func fitted(_ values: [String], count: Int) -> [String] {
    guard count > 0, values.count != count else { return values }
    if values.count < count { return values + Array(repeating: "", count: count - values.count) }
    return Array(values.prefix(count - 1)) + [values.dropFirst(count - 1).joined(separator: joinedFieldSeparator)]
  }

  private static func fittedNotes(
    _ collection: DeckCollection, location: SourceLocation, warnings: inout CappedWarnings
  ) throws(DeckError) -> [Note] {
    let noteTypes = Dictionary(collection.noteTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    // Looked up for every note, so only the field count (a note type is a large value to copy).
    let fieldCounts = noteTypes.mapValues(\.fields.count)
    var notes = collection.notes
    // Every note's text counts towards the empty values allowed, counted at the first note
    // filled (most collections have none).
    var filling: FieldFilling?
    for index in notes.indices {
      guard let count = fieldCounts[notes[index].noteTypeID], count > 0, notes[index].fields.count != count,
        let noteType = noteTypes[notes[index].noteTypeID]
      else { continue }
      let note = notes[index]
      let expected = noteType.fields.count
      let label = "note type '\(noteType.name)' (id \(noteType.id)) has \(CountedNoun.phrase(expected, "field"))"
      let values = "\(CountedNoun.phrase(note.fields.count, "field value"))"
      let change: String
      if note.fields.count < expected {
        let missing = expected - note.fields.count
        change =
          "the missing \(missing) \(missing == 1 ? "is" : "are") written empty, as Anki's Check Database fills them"
      } else {
        let last = noteType.fields[expected - 1].name
        change =
          "values \(expected) to \(note.fields.count) are joined with \"\(joinedFieldSeparator)\" into the last field, '\(last)', as Anki's Check Database joins them"
      }
      if note.fields.count < expected {
        if filling == nil {
          var counted = FieldFilling()
          for note in collection.notes { counted.countText(of: note.fields) }
          filling = counted
        }
        try filling?.countFill(
          given: note.fields.count, of: expected, noteType: noteType.name, at: location.itemPart("note \(note.id)"))
      }
      warnings.report(
        .fieldCount, at: location.itemPart("note \(note.id)"), "note has \(values), but its \(label); \(change)")
      notes[index].fields = fitted(note.fields, count: expected)
    }
    return notes
  }

  /// `collection`'s decks, and one named `recovered<id>` for each deck id `cards` use that no deck
  /// has.
  private static func decks(
    for cards: [Card], in collection: DeckCollection, location: SourceLocation, warnings: inout CappedWarnings
  ) -> [Deck] {
    var decks = collection.decks
    let defined = Set(decks.map(\.id))
    guard cards.contains(where: { !defined.contains($0.deckID) }) else { return decks }
    var names = Set(decks.map { $0.name.lowercased() })
    var added: [Int64: String] = [:]
    for card in cards where !defined.contains(card.deckID) {
      if added[card.deckID] == nil {
        var name = "recovered\(card.deckID)"
        while names.contains(name.lowercased()) { name += "+" }
        decks.append(Deck(id: card.deckID, name: name, modificationTime: card.modificationTime))
        names.insert(name.lowercased())
        added[card.deckID] = name
      }
      warnings.report(
        .unknownDeck, at: location.itemPart("card \(card.id)"),
        "card is in deck \(card.deckID), which the collection does not define; it is written in a deck '\(added[card.deckID] ?? "")' with that id, added as Anki's Check Database adds one"
      )
    }
    decks.sort { $0.id < $1.id }
    return decks
  }
}
