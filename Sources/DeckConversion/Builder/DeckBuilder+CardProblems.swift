import DeckAnki
import DeckCore

extension DeckBuilder {
  /// One `card-rendering` warning for the cards of `collection` that Anki would show its message
  /// on instead of what their template asks for (``CardRenderer/problem(of:finger:)``: a template
  /// naming a field the note type does not have, a front left blank, a cloze note without the
  /// cloze of its card), counting them and naming the first with its note's record id
  /// (`recordIDs`, by the note's position); nil when every card shows its template.
  ///
  /// The cards are checked, not rendered (``CardRenderer/problem(of:finger:)``): for 100,000
  /// notes of Basic (and reversed card), 200,000 cards, some 0.13 s of a release build, which
  /// doubles what ``build()`` takes but adds about 8 % to building the deck and writing it as an
  /// `.apkg` (1.5 s).
  static func cardProblemWarning(
    in collection: DeckCollection, recordIDs: [String], at location: SourceLocation
  ) -> Diagnostic? {
    let renderer = CardRenderer(collection)
    var finger = 0
    var count = 0
    var first: (card: Card, problem: RenderingProblem)?
    for card in collection.cards {
      guard let problem = renderer.problem(of: card, finger: &finger) else { continue }
      count += 1
      if first == nil { first = (card, problem) }
    }
    guard let (card, problem) = first else { return nil }
    let position = collection.notes.firstIndex { $0.id == card.noteID }
    let recordID = position.map { recordIDs.indices.contains($0) ? recordIDs[$0] : "" } ?? ""
    let noteType = position.flatMap { collection.noteType(id: collection.notes[$0].noteTypeID) }
    let templateIndex = noteType?.kind == .cloze ? 0 : card.templateOrdinal
    let template =
      noteType.map { $0.templates.indices.contains(templateIndex) ? $0.templates[templateIndex].name : "" } ?? ""
    let others = count == 1 ? "" : "; so would \(CountedNoun.phrase(count - 1, "more card"))"
    return Diagnostic(
      .cardRendering, at: location.item("note '\(recordID)'"),
      "its card \(CountedPosition.text(ofIndex: card.templateOrdinal)) (note type '\(noteType?.name ?? "")', template '\(template)') would show Anki's message instead of what its template asks for: \(problem)\(others)"
    )
  }
}
