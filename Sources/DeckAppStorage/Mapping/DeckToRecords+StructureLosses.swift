import DeckCore

extension DeckToRecords {
  /// What records cannot hold of how the deck is built, one warning for each kind: the decks
  /// the cards are in, the cards beyond the first of each note (a reverse card, a further cloze
  /// number), and, without a profile, which note type each record came from when there are
  /// several. `notes` are the notes the records are made of.
  static func structureLosses(
    of collection: DeckCollection, notes: [Note], profile: AppRecordProfile?, recordType: String,
    at location: SourceLocation
  ) -> [Diagnostic] {
    var losses: [Diagnostic] = []
    var kept = IDSet(notes.map(\.id))
    var cardsPerNote: [Int64: Int] = [:]
    var deckIDs = Set<Int64>()
    for card in collection.cards where kept.contains(card.noteID) {
      cardsPerNote[card.noteID, default: 0] += 1
      deckIDs.insert(card.scheduling.originalDeckID != 0 ? card.scheduling.originalDeckID : card.deckID)
    }
    let deckNames = Dictionary(collection.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    // A deck made from the records is named after the app or the record type: a deck of that
    // name (or Default) loses nothing.
    let madeBack = profile?.app ?? recordType
    let named = deckIDs.map { deckNames[$0] ?? "\($0)" }.sorted()
    if named.count > 1 || named.contains(where: { $0 != "Default" && $0 != madeBack }) {
      losses.append(
        Diagnostic(
          .decksDropped, at: location,
          "the cards are in \(Self.list(named, of: "deck")), which the records cannot hold: a deck made from them puts every note in one deck, '\(madeBack)'"
        ))
    }
    let extraCards = cardsPerNote.values.reduce(0) { $0 + max(0, $1 - 1) }
    if extraCards > 0 {
      losses.append(
        Diagnostic(
          .cardsDropped, at: location,
          "\(CountedNoun.phrase(extraCards, "card")) beyond the first of \(extraCards == 1 ? "its" : "their") note (a reverse card, a further cloze number) \(extraCards == 1 ? "is" : "are") not kept: a record is a note, and a deck made from the records has one card a note"
        ))
    }
    if profile == nil {
      let typeIDs = Set(notes.map(\.noteTypeID))
      if typeIDs.count > 1 {
        let names = collection.noteTypes.filter { typeIDs.contains($0.id) }.map(\.name).sorted()
        losses.append(
          Diagnostic(
            .noteTypesMerged, at: location,
            "notes of \(Self.list(names, of: "note type")) become records of one type, '\(recordType)', each with its own note type's field names; which note type a record came from is not kept"
          ))
      }
    }
    return losses
  }

  /// The media files of `collection` that no record holds and whose loss no warning about a
  /// field names: files only the note types' templates or styling use (`[sound:_1sec.mp3]` on a
  /// card's back, a `_logo.png`), files only a field left out names (a field a profile has no
  /// key for, a second picture in a field a Data key takes), files only notes left out use, and
  /// files nothing uses. `accountedFor` are the names records hold and those already reported.
  static func mediaLosses(
    of collection: DeckCollection, accountedFor: Set<String>, at location: SourceLocation
  ) -> [Diagnostic] {
    let lost = collection.media.map(\.name).filter { !accountedFor.contains($0) }.sorted()
    guard !lost.isEmpty else { return [] }
    return [
      Diagnostic(
        .mediaDropped, at: location,
        "\(list(lost, of: "media file")) \(lost.count == 1 ? "is" : "are") not kept: no record holds \(lost.count == 1 ? "it" : "them") (a file only the note types' templates or styling use, only a field left out names, or no note kept names)"
      )
    ]
  }

  /// A `note-types-dropped` warning naming the note types whose definitions records do not keep:
  /// records hold the notes' values, and a deck made from them gets a plain note type of their
  /// record type (or profile). Anki's stock note types as it creates them, and note types made
  /// from records as they were made, come back the same and are not named; any other is, with
  /// what differs from the stock one of its name, or as used by no note. As the CSV writer
  /// names the note types a CSV file does not define.
  static func noteTypeLosses(
    of collection: DeckCollection, notes: [Note], at location: SourceLocation
  ) -> [Diagnostic] {
    let used = Set(notes.map(\.noteTypeID))
    // A note type no note kept uses is named when it is none of Anki's stock ones by name: one
    // of those (an older Anki's styling, say) is what any Anki makes again.
    let lost = collection.noteTypes.filter { noteType in
      guard !RecordsToDeck.isMadeFromRecords(noteType) else { return false }
      return used.contains(noteType.id)
        ? !StockNoteType.isUnchanged(noteType) : StockNoteType.differences(of: noteType) == nil
    }
    guard !lost.isEmpty else { return [] }
    let named = lost.map { noteType in
      let quoted = "'\(noteType.name)'"
      if !used.contains(noteType.id) { return "\(quoted) (no note kept uses it)" }
      guard let differences = StockNoteType.differences(of: noteType), !differences.isEmpty else { return quoted }
      return
        "\(quoted) (its \(WordList.joined(differences)) \(differences.count == 1 ? "differs" : "differ") from the stock one)"
    }
    return [
      Diagnostic(
        .noteTypesDropped, at: location,
        "records hold the notes' values, not their note types' templates, styling or field settings; \(lost.count == 1 ? "this note type is not one of Anki's stock ones" : "these \(lost.count) note types are not Anki's stock ones"), so \(lost.count == 1 ? "its definition is" : "their definitions are") not kept: \(ShortList.text(named))"
      )
    ]
  }

  /// `3 decks ('A', 'B', 'C')`, the first five named.
  private static func list(_ names: [String], of kind: String) -> String {
    "\(CountedNoun.phrase(names.count, kind)) (\(ShortList.quoted(names)))"
  }
}
