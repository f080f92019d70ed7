import DeckCore
import DeckIO
import DeckJSON
import Foundation

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
  /// leaves out itself), or no note or note type has one of its own. A note whose time is one
  /// of `inputFileTimes` has none of its own: a reader gives such a note (a JSON deck's note
  /// without `modified`, a json-dir note file without it) the time of its file.
  static func warning(
    writing deck: LoadedDeck, as output: FormatDescription, inputFileTimes: Set<Int64>, at location: SourceLocation
  ) -> Diagnostic? {
    guard applies(to: deck, writtenAs: output) else { return nil }
    let notes = deck.collection.notes.lazy.filter {
      $0.modificationTime != 0 && !inputFileTimes.contains($0.modificationTime)
    }.count
    let noteTypes = deck.collection.noteTypes.lazy.filter { $0.modificationTime != 0 }.count
    guard notes + noteTypes > 0 else { return nil }
    let owners = [(notes, "note"), (noteTypes, "note type")].filter { $0.0 > 0 }.map {
      CountedNoun.phrase($0.0, $0.1)
    }
    return Diagnostic(
      "modification-times-dropped", at: location,
      "the modification times of \(WordList.joined(owners)) (when each was last changed) are not kept: the \(output.name.rawValue) format has no place for them, so reading it back gives them the file's time, and Anki's import the time of the import (Anki's browser shows these times, and its import of a package updates a note only from a later one)"
    )
  }

  /// Whether writing `deck` as `output` may lose times: `deck`'s format holds them, and
  /// `output`'s, read back, does not.
  static func applies(to deck: LoadedDeck, writtenAs output: FormatDescription) -> Bool {
    output.reads && !output.holds.contains(.modificationTimes) && deck.heldAspects.contains(.modificationTimes)
  }

  /// The times a reader gives the notes of the input at `path` that have none of their own: the
  /// file's, or, for a folder, those of the note files in its `notes` folder (json-dir).
  static func fileTimes(of path: String) -> Set<Int64> {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
      return Set(FileManager.default.modificationSeconds(atPath: path).map { [$0] } ?? [])
    }
    let notes = (path as NSString).appendingPathComponent(DeckJSONDirectory.notesFolder)
    guard let files = try? FileManager.default.contentsOfDirectory(atPath: notes) else { return [] }
    return Set(
      files.compactMap {
        FileManager.default.modificationSeconds(atPath: (notes as NSString).appendingPathComponent($0))
      })
  }
}
