import Foundation

extension CardGeneration {
  /// How the cards an importer makes from each note's fields (``CardGeneration``: Anki's CSV
  /// importer, CrowdAnki's import) differ from the cards a collection holds.
  package struct Regeneration: Sendable, Equatable {
    /// Cards the collection holds that the importer does not make: their template shows nothing,
    /// or their cloze number is no longer in the text (Anki keeps such a card until Empty Cards
    /// removes it).
    package var lostCards = 0
    /// The GUIDs of the notes those cards belong to, in note order.
    package var lostGUIDs: [String] = []
    /// Cards the importer makes that the collection does not hold.
    package var madeCards = 0
    /// The GUIDs of the notes those cards belong to, in note order.
    package var madeGUIDs: [String] = []
  }

  /// What making every note's cards again from its fields changes in `collection`. Notes without
  /// cards, and notes of a note type the collection does not define, are passed over.
  package static func regeneration(of collection: DeckCollection) -> Regeneration {
    // Each card's note and ordinal, by note, walked beside the notes in id order (the model's
    // order; a collection built otherwise is walked in sorted order).
    let cards = collection.cards.map { (note: $0.noteID, ordinal: $0.templateOrdinal) }.sorted { $0 < $1 }
    let notes = collection.notes
    let inOrder = notes.indices.dropFirst().allSatisfy { notes[$0 - 1].id <= notes[$0].id }
    let order = inOrder ? Array(notes.indices) : notes.indices.sorted { notes[$0].id < notes[$1].id }
    var noteTypeIndex: [Int64: Int] = [:]
    for index in collection.noteTypes.indices { noteTypeIndex[collection.noteTypes[index].id] = index }
    var generation = CardGeneration()
    var result = Regeneration()
    var next = 0
    var had: [Int] = []
    // The note type of the note before, most often the next one's too.
    var noteType: NoteType?
    for position in order {
      let note = notes[position]
      while next < cards.count && cards[next].note < note.id { next += 1 }
      had.removeAll(keepingCapacity: true)
      while next < cards.count && cards[next].note == note.id {
        if had.last != cards[next].ordinal { had.append(cards[next].ordinal) }
        next += 1
      }
      guard !had.isEmpty else { continue }
      if noteType?.id != note.noteTypeID {
        guard let typeIndex = noteTypeIndex[note.noteTypeID] else { continue }
        noteType = collection.noteTypes[typeIndex]
      }
      guard let noteType else { continue }
      let made = generation.ordinals(for: note.fields, tags: note.tags, of: noteType)
      if made == had { continue }
      let lost = had.filter { !made.contains($0) }.count
      let new = made.filter { !had.contains($0) }.count
      if lost > 0 {
        result.lostCards += lost
        result.lostGUIDs.append(note.guid)
      }
      if new > 0 {
        result.madeCards += new
        result.madeGUIDs.append(note.guid)
      }
    }
    return result
  }
}
