import DeckCore
import Foundation

extension DeckComparison {
  /// Media files added, removed and changed (other SHA-1, or another name for the same bytes),
  /// by name in NFC; empty when a format
  /// holds no media. When a format holds only the media notes use (a deck package), a file only
  /// one side has counts only if that side's notes, templates or CSS refer to it, or if Anki's
  /// import keeps it regardless (a name starting with `_` or `latex-`).
  ///
  /// Each file's bytes are read in chunks, one file at a time (the SHA-1 a package's media map
  /// records is used when it has one); the comparison stops between two files when the work is
  /// no longer wanted (``Cancellation``).
  func mediaDifferences() throws -> DeckDifference.MediaDifferences {
    guard compared.contains(.media) else { return DeckDifference.MediaDifferences() }
    let before = Self.byName(old.media)
    let after = Self.byName(new.media)
    var result = DeckDifference.MediaDifferences()
    let usedAfter = compared.contains(.unusedItems) ? nil : Self.referencedNames(in: new)
    let usedBefore = compared.contains(.unusedItems) ? nil : Self.referencedNames(in: old)
    for name in after.keys.sorted() {
      guard let file = after[name] else { continue }
      if let earlier = before[name] {
        let (oldEntry, newEntry) = (try Self.entry(earlier), try Self.entry(file))
        if oldEntry.sha1 != newEntry.sha1 { result.changed.append(DeckDifference.Change(old: oldEntry, new: newEntry)) }
      } else if usedAfter?.contains(name) ?? true || MediaFileName.isStatic(name) {
        result.added.append(try Self.entry(file))
      }
    }
    for name in before.keys.sorted()
    where after[name] == nil && (usedBefore?.contains(name) ?? true || MediaFileName.isStatic(name)) {
      if let file = before[name] { result.removed.append(try Self.entry(file)) }
    }
    Self.pairRenames(&result)
    return result
  }

  /// A file only the `from` side has and a file only the `to` side has with the same bytes (the
  /// same SHA-1) are one file renamed: listed as changed, the old name as `old`, the new as
  /// `new` (app storage names a picture by its SHA-1). Files of the same bytes pair in name order.
  private static func pairRenames(_ result: inout DeckDifference.MediaDifferences) {
    var removedByDigest: [String: [Int]] = [:]
    for (index, file) in result.removed.enumerated().reversed() {
      removedByDigest[file.sha1, default: []].append(index)
    }
    var renamedFrom = Set<Int>()
    var renamedTo = Set<Int>()
    for (index, file) in result.added.enumerated() {
      guard let removedIndex = removedByDigest[file.sha1]?.popLast() else { continue }
      result.changed.append(DeckDifference.Change(old: result.removed[removedIndex], new: file))
      renamedFrom.insert(removedIndex)
      renamedTo.insert(index)
    }
    guard !renamedTo.isEmpty else { return }
    result.removed = result.removed.indices.filter { !renamedFrom.contains($0) }.map { result.removed[$0] }
    result.added = result.added.indices.filter { !renamedTo.contains($0) }.map { result.added[$0] }
    result.changed.sort { $0.new.name < $1.new.name }
  }

  private static func byName(_ media: [MediaFile]) -> [String: MediaFile] {
    Dictionary(
      media.map { ($0.name.canonicallyComposed, $0) }, uniquingKeysWith: { first, _ in first })
  }

  private static func entry(_ file: MediaFile) throws -> DeckDifference.MediaEntry {
    try Cancellation.check()
    let fingerprint = try file.blob.fingerprint()
    return DeckDifference.MediaEntry(name: file.name, sha1: SHA1.hex(fingerprint.sha1), size: fingerprint.size)
  }

  /// The media names (NFC) that `collection`'s notes refer to, or that its templates or CSS
  /// mention (such as `_vocab.css` in an `@import`).
  private static func referencedNames(in collection: DeckCollection) -> Set<String> {
    var names = Set<String>()
    for note in collection.notes {
      for field in note.fields {
        for name in MediaReferences.fileNames(in: field) { names.insert(name.canonicallyComposed) }
      }
    }
    let styling = collection.noteTypes.flatMap {
      [$0.css] + $0.templates.flatMap { [$0.questionFormat, $0.answerFormat] }
    }
    .joined(separator: "\n").canonicallyComposed
    for file in collection.media {
      let name = file.name.canonicallyComposed
      if !names.contains(name) && styling.contains(name) { names.insert(name) }
    }
    return names
  }
}
