import DeckAnki
import DeckCore
import DeckIO

/// Writes Anki's "Cards in Plain Text": a row per card, by card id, with its rendered question
/// and answer (``CardRenderer``), as `col.export_card_csv` writes it: `#separator:` and `#html:`
/// lines, then the two columns, `<style>` blocks and type-in-the-answer boxes left out and the
/// answer without the question before its `<hr id=answer>`
/// (``AnkiFieldText/cardExportSide(_:isAnswer:isHTML:)``).
///
/// What the rows cannot hold is one warning: the notes, their note types, decks, tags,
/// scheduling, review log and media. A card that shows Anki's message instead of its template
/// (a blank front, a missing cloze, a template that does not parse) is written with that message,
/// as Anki shows it, and named in a warning (Anki's own export stops at the first such
/// template).
package struct CardTextWriter {
  /// The separator (Anki's export writes tabs) and whether the sides are written as HTML.
  package var options: CSVOptions
  /// Where the writer reports how far it has come.
  package var progress: ProgressReporter?

  /// Creates a writer.
  package init(options: CSVOptions = CSVOptions(), progress: ProgressReporter? = nil) {
    self.options = options
    self.progress = progress
  }

  /// Writes the cards of `collection` to `path`.
  ///
  /// - Returns: the warnings: what the file does not keep, and each card shown with Anki's message.
  /// - Throws: ``DeckError`` when the deck holds no cards, when the options ask for a header row
  ///   or chosen columns (the layout is Anki's), or when writing fails.
  @discardableResult
  package func write(_ collection: DeckCollection, to path: String, reportingAs destination: String? = nil) throws
    -> [Diagnostic]
  {
    let location = SourceLocation(file: destination ?? path)
    guard !options.writesPlainSpreadsheet else {
      throw DeckError(
        .invalidRequest, at: location,
        "Cards in Plain Text has Anki's two columns, the question and the answer: a header row or a choice of columns does not apply to it"
      )
    }
    guard !collection.cards.isEmpty else {
      throw DeckError(
        .invalidRequest, at: location,
        "the deck holds no cards, and Cards in Plain Text is a row per card: Anki refuses a file without rows as empty, so none is written"
      )
    }
    let isHTML = options.isHTML != false
    let separator = options.separator ?? .tab
    let renderer = CardRenderer(collection)
    var warnings = [
      Diagnostic(
        .cardsText, at: location,
        "Cards in Plain Text holds each card's rendered front and back only: the notes' fields, tags, note types, decks, scheduling, review log and media files are not kept"
      )
    ]
    if let warning = separator.warningUnlessKnownToAnki(at: location) { warnings.append(warning) }
    let order = collection.cards.indices.sorted { collection.cards[$0].id < collection.cards[$1].id }
    progress?.start(.writingNotes, total: Int64(order.count))
    defer { progress?.finish(.writingNotes) }
    try FileSink.writing(to: path) { sink in
      var emitter = CSVEmitter(sink: sink, separator: separator)
      try emitter.writeLine(separator.headerLine)
      try emitter.writeLine("#html:\(isHTML)")
      var noteFinger = 0
      for (index, position) in order.enumerated() {
        try Cancellation.check(atItem: index)
        let card = collection.cards[position]
        let sides = renderer.render(card, finger: &noteFinger)
        if let problem = sides.problem {
          warnings.append(
            Diagnostic(
              .cardRendering, at: location,
              "card \(card.id) is written with Anki's message instead of its template: \(problem)"))
        }
        try emitter.writeRow([
          AnkiFieldText.cardExportSide(sides.question, isAnswer: false, isHTML: isHTML),
          AnkiFieldText.cardExportSide(sides.answer, isAnswer: true, isHTML: isHTML),
        ])
        progress?.advance(.writingNotes)
      }
      try emitter.flush()
    }
    return warnings
  }
}
