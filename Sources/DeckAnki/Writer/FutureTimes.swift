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
///
/// A review's id is the time it was made, in milliseconds. Anki's import of a deck package
/// replaces the id of a review more than a day in the future with the time of the import
/// (checked with the real backend: 23 hours ahead is kept, 25 hours ahead becomes the import
/// time), so the review's date is lost; one more `future-time` warning names them. A collection
/// package gives them new ids itself, with a warning of its own (``FutureIDs``).
enum FutureTimes {
  /// How far ahead of the clock a time may be, in seconds, for clocks that differ.
  static let tolerance: Int64 = 86_400

  /// Reports in `log` the notes and note types of `collection` modified after `now` plus a day
  /// and, in a deck package, the reviews made after it.
  static func report(
    _ collection: DeckCollection, kind: AnkiPackageKind, now: Date = Date(), location: SourceLocation,
    log: inout DiagnosticLog
  ) {
    if kind == .apkg { reportReviews(collection.reviews, now: now, location: location, log: &log) }
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
      .futureTime, at: location.item(first.item),
      "\(counts.joined(separator: " and ")) \(total == 1 ? "was" : "were") last modified in the future (this one on \(CalendarDays.utcText(ofSeconds: first.time))): Anki takes \(total == 1 ? "it" : "them") as newer than any later export, so importing a later version will not update \(total == 1 ? "it" : "them"); the times are written as they are (the clock of the program that made the deck was probably wrong)"
    )
  }

  /// Reports in `log`, in one warning, the reviews whose time (their id, in milliseconds) is
  /// more than a day after `now`, which Anki's import of a deck package replaces.
  private static func reportReviews(
    _ reviews: [Review], now: Date, location: SourceLocation, log: inout DiagnosticLog
  ) {
    let limit = Int64(now.timeIntervalSince1970 * 1000) + tolerance * 1000
    let future = reviews.lazy.filter { $0.id > limit }
    guard let first = future.first else { return }
    let count = future.count
    let names = ShortList.text(future.prefix(5).map { "\($0.id)" }, total: count)
    log.report(
      .futureTime, at: location.item("review \(first.id)"),
      "\(CountedNoun.phrase(count, "review")) (\(count == 1 ? "review" : "reviews") \(names)) \(count == 1 ? "was" : "were") made in the future (this one on \(CalendarDays.utcText(ofSeconds: first.id / 1000))): a review's id is its time, and Anki's import of a deck package replaces such a time with the time of the import, so \(count == 1 ? "its" : "their") date is lost; \(count == 1 ? "it is" : "they are") written as \(count == 1 ? "it is" : "they are")"
    )
  }
}
