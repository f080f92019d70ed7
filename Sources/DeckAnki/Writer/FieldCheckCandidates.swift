import DeckCore
import Foundation

/// The notes whose fields a package writer's field checks may change or refuse, found on both
/// cores, so that those checks (``CollectionValidation``'s own, ``ImportRemovedCharacters``,
/// ``ImportComposedText``) then run, in note order, on these notes alone: in a usual deck none
/// or a few. A large deck's fields are otherwise scanned on one core, three times over, before
/// anything can be written.
///
/// A note is left out only when every check would leave it as it is: its note type exists and
/// has as many fields; no field holds a control character other than tab and line feed, or
/// DEL (U+001F and U+0000 among them); every field is in NFC; no media reference in a field is
/// renamed (``MediaReferences/storedNames(in:)``); and, in a collection package, its tags are
/// clean (``CollectionValidation/isCleanTag(_:)``). The checks' changes keep that true: a note
/// none of them would change is not changed by an earlier one.
enum FieldCheckCandidates {
  /// How many notes make it worth splitting the scan between the cores.
  static let splitFrom = 4_000

  /// The indices of `notes`, in order, that the field checks may change or refuse, for a
  /// package of `kind` whose note types have `fieldCounts` (by note type id).
  static func indices(of notes: [Note], fieldCounts: [Int64: Int], kind: AnkiPackageKind) -> [Int] {
    let parts = notes.count < splitFrom ? 1 : 2
    var marked = [Bool](repeating: false, count: notes.count)
    marked.withUnsafeMutableBufferPointer { marks in
      let marks = SendableMarks(base: marks.baseAddress)
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        // Each part writes only its own range of the marks.
        for index in (notes.count * part / parts)..<(notes.count * (part + 1) / parts)
        where mayChange(notes[index], fieldCounts: fieldCounts, kind: kind) {
          marks.base?[index] = true
        }
      }
    }
    return marked.indices.filter { marked[$0] }
  }

  /// Whether a field check may change or refuse `note` (see the type's summary).
  static func mayChange(_ note: Note, fieldCounts: [Int64: Int], kind: AnkiPackageKind) -> Bool {
    guard let count = fieldCounts[note.noteTypeID], note.fields.count == count else { return true }
    if kind == .colpkg, !note.tags.allSatisfy(CollectionValidation.isCleanTag) { return true }
    for field in note.fields {
      let bytes = TextBytes(of: field)
      if bytes.contains(.removedControl) { return true }
      if kind == .apkg, bytes.contains(.mayChangeInNFC),
        !field.canonicallyComposed.unicodeScalars.elementsEqual(field.unicodeScalars)
      {
        return true
      }
      if bytes.contains(.markup), MediaReferences.storedNames(in: field) != nil { return true }
    }
    return false
  }

  /// The marks' storage, written by the parts of a concurrent scan, each in its own range.
  private struct SendableMarks: @unchecked Sendable {
    var base: UnsafeMutablePointer<Bool>?
  }
}
