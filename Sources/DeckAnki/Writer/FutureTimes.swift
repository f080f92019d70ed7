import DeckCore
import Foundation

/// Notes and note types last modified in the future, reported before a package is written.
///
/// Anki updates a note or a note type it already has only from a package whose copy is newer
/// (checked with the real backend: after a package whose notes were modified in 2100, a later
/// export of the same notes with edits updates none of them). A modification time in the future
/// (the clock of the program that made the deck was wrong, or a made-up time) therefore keeps
/// every later export of those notes from updating them, the trap of user complaints 7 and 23 in
/// `shared/docs/peers.md`. The times are written as they are, with one `future-time` warning
/// (`--strict` turns it into a failure); more than a day ahead counts, as Anki's own repair of
/// ids in the future allows a day.
enum FutureTimes {
  /// How far ahead of the clock a time may be, in seconds, for clocks that differ.
  static let tolerance: Int64 = 86_400

  /// Reports in `log` the notes and note types of `collection` modified after `now` plus a day.
  static func report(
    _ collection: DeckCollection, now: Date = Date(), location: SourceLocation, log: inout DiagnosticLog
  ) {
    let limit = Int64(now.timeIntervalSince1970) + tolerance
    let notes = collection.notes.lazy.filter { $0.modificationTime > limit }
    let noteTypes = collection.noteTypes.filter { $0.modificationTime > limit }
    guard
      let first = notes.first.map({ (item: "note \($0.id)", time: $0.modificationTime) })
        ?? noteTypes.first.map({ (item: "note type '\($0.name)'", time: $0.modificationTime) })
    else { return }
    var counts: [String] = []
    let noteCount = notes.count
    if noteCount > 0 { counts.append("\(CountedNoun.phrase(noteCount, "note"))") }
    if !noteTypes.isEmpty { counts.append("\(CountedNoun.phrase(noteTypes.count, "note type"))") }
    let total = noteCount + noteTypes.count
    log.report(
      "future-time", at: location.item(first.item),
      "\(counts.joined(separator: " and ")) \(total == 1 ? "was" : "were") last modified in the future (this one on \(CalendarDays.utcText(ofSeconds: first.time))): Anki takes \(total == 1 ? "it" : "them") as newer than any later export, so importing a later version will not update \(total == 1 ? "it" : "them"); the times are written as they are (the clock of the program that made the deck was probably wrong)"
    )
  }

}
