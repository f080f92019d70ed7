/// The empty values added to fill notes to their note types' field counts, kept in proportion to
/// the text the notes give.
///
/// A note that gives fewer values than its note type has fields is filled with empty ones: a JSON
/// note that leaves a field out, a short CSV row, a record without a key, a note a writer repairs.
/// deckport holds every note's values, and an empty one still takes 16 bytes, so a small file
/// whose note type has tens of thousands of fields, and whose notes give one each, would take
/// gigabytes of memory for values no note has. Filling passes while the empty values added come
/// to at most ``allowance``, and ``perTextByte`` more for each byte of field text the notes
/// counted so far give; past that it throws a ``DeckError/Kind/memoryLimitExceeded`` error naming the
/// note type and the note. Real decks stay far below it: a note type of 40 fields whose notes give
/// 4 values of 10 bytes adds 36 empty values against 80 more allowed.
///
/// ```swift
/// var filling = FieldFilling()
/// filling.countText(of: values)
/// try filling.countFill(given: values.count, of: noteType.fields.count, noteType: noteType.name, at: location)
/// values += repeatElement("", count: max(noteType.fields.count - values.count, 0))
/// ```
package struct FieldFilling: Sendable {
  /// The empty values any input may add, however little text it has: 4 Mi (64 MiB held).
  package static let allowance = 1 << 22
  /// How many more empty values each byte of field text allows.
  package static let perTextByte = 2

  /// How many empty values the notes counted so far were filled with.
  package private(set) var emptyValuesAdded = 0
  /// How many bytes of field text (UTF-8) the notes counted so far give.
  package private(set) var textBytes = 0

  /// A count of no notes yet.
  package init() {}

  /// The most empty values the notes counted so far may be filled with.
  package var limit: Int {
    let perText = textBytes.multipliedReportingOverflow(by: Self.perTextByte)
    let total = Self.allowance.addingReportingOverflow(perText.partialValue)
    return perText.overflow || total.overflow ? Int.max : total.partialValue
  }

  /// Counts the text of a note's values, which allows more empty values.
  package mutating func countText(of values: [String]) {
    for value in values { textBytes += value.utf8.count }
  }

  /// Counts `bytes` bytes of text (a row's cells), which allow more empty values.
  package mutating func countText(bytes: Int) {
    // Bytes of strings in memory: far from overflowing.
    textBytes += max(bytes, 0)
  }

  /// Counts a note that gives values for `given` of its note type's `fieldCount` fields and is
  /// filled with empty values for the others; throws when the empty values added pass ``limit``.
  /// Count the note's text first (``countText(of:)``).
  package mutating func countFill(
    given: Int, of fieldCount: Int, noteType: String, at location: SourceLocation
  ) throws(DeckError) {
    let missing = max(fieldCount - given, 0)
    guard missing > 0 else { return }
    emptyValuesAdded += missing
    guard emptyValuesAdded > limit else { return }
    throw DeckError(
      .memoryLimitExceeded, at: location,
      "note type '\(noteType)' has \(CountedNoun.phrase(fieldCount, "field")) and this note gives values for \(given): filling the notes so far with empty values for the fields they leave out would hold \(emptyValuesAdded) empty values in memory, more than the \(limit) deckport allows (\(Self.allowance), and \(Self.perTextByte) more for each of the \(CountedNoun.phrase(textBytes, "byte")) of text the notes give); remove the fields the notes do not use from the note type, or give the notes their values"
    )
  }
}
