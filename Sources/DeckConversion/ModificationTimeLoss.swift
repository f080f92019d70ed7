import DeckCore

/// The times notes and note types were last changed, lost when a deck read from a format that
/// holds them (an Anki package, a deckport JSON deck) is written to one that does not (CSV, a
/// CrowdAnki folder, app storage).
///
/// The writers cannot tell: a reader of such a format gives every note the file's time, so a
/// collection read from a CSV file has times too, which writing it to another CSV file does not
/// lose. The converter knows both formats, and reports the loss once, before anything is written.
enum ModificationTimeLoss {
  /// The warning for writing `deck` as `output`, or nil when nothing is lost: `deck`'s format
  /// holds no such times, `output`'s does (or is not read back: Cards in Plain Text says what it
  /// leaves out itself), or no note or note type has one of its own. A note the reader gave a
  /// time (``LoadedDeck/notesTimedByReader``: a JSON deck's note without `modified` has its
  /// file's) has none of its own.
  static func warning(writing deck: LoadedDeck, as output: FormatDescription, at location: SourceLocation)
    -> Diagnostic?
  {
    guard applies(to: deck, writtenAs: output) else { return nil }
    let notes = deck.collection.notes.lazy.filter {
      $0.modificationTime != 0 && !deck.notesTimedByReader.contains($0.id)
    }.count
    let noteTypes = deck.collection.noteTypes.lazy.filter { $0.modificationTime != 0 }.count
    guard notes + noteTypes > 0 else { return nil }
    let owners = [(notes, "note"), (noteTypes, "note type")].filter { $0.0 > 0 }.map {
      CountedNoun.phrase($0.0, $0.1)
    }
    return Diagnostic(
      .modificationTimesDropped, at: location,
      "the modification times of \(WordList.joined(owners)) (when each was last changed) are not kept: the \(output.name.rawValue) format has no place for them, so reading it back gives them the file's time, and Anki's import the time of the import (Anki's browser shows these times, and its import of a package updates a note only from a later one)"
    )
  }

  /// Whether writing `deck` as `output` may lose times: `deck`'s format holds them, and
  /// `output`'s, read back, does not.
  static func applies(to deck: LoadedDeck, writtenAs output: FormatDescription) -> Bool {
    output.reads && !output.holds.contains(.modificationTimes) && deck.heldAspects.contains(.modificationTimes)
  }
}
