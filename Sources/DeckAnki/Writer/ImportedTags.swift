import DeckCore

/// The tags of a deck package written as Anki's import of it stores them, each change reported
/// with a `tag-changed` warning naming the note and the tag.
///
/// Checked with the real backend (anki 26.9.3, `Tests/anki/test_values_anki_import_changes.py`).
/// Importing an `.apkg`, Anki goes through the notes in id order and, for each tag of a note:
/// removes spaces and control characters (``CollectionValidation/cleanedTag(_:)``); brings it
/// into NFC; names an empty `::` level `blank` (`lang::` is `lang::blank`, `a::::b` is
/// `a::blank::b`); spells it as a tag it met before that is the same under full case folding
/// (``FullCaseFolding``: `STRASSE` after `Straße` is `Straße`), or, when none is, spells its
/// longest leading levels that are such a tag so (`X::y::z` after `x::Y` is `x::Y::z`); and
/// keeps one tag of the note of each spelling so reached (`Verb verb` is `Verb`). Restoring a
/// `.colpkg` changes none of these, so only a deck package is written so.
///
/// The package holds the tags as Anki will store them, so that what it holds does not depend on
/// the order in which Anki meets the notes.
package enum ImportedTags {
  /// ``stored(_:location:log:)`` for a CSV file, whose import by Anki stores tags by the same
  /// rules but meets the notes in the order of the rows, which is `notes`' order: the notes, and
  /// the warnings.
  package static func storedInRowOrder(_ notes: [Note], location: SourceLocation)
    -> (notes: [Note], warnings: [Diagnostic])
  {
    var log = DiagnosticLog()
    let result = stored(
      notes, order: Array(notes.indices), naming: .writing(notes, at: location), location: location, log: &log)
    return (result, log.finished())
  }

  /// The tags of `notes`, read from a CSV file in the order of its rows, as Anki's CSV import
  /// stores them (by the rules of ``storedInRowOrder(_:location:)``: `the The` is `the`, the
  /// spelling of the first row that has it), each change reported at the line its row starts on
  /// (`lines[i]` for `notes[i]`): the notes, and the warnings.
  package static func readInRowOrder(_ notes: [Note], lines: [Int], location: SourceLocation)
    -> (notes: [Note], warnings: [Diagnostic])
  {
    var log = DiagnosticLog()
    let naming = Naming(
      verb: "read",
      place: { index in
        var place = location
        place.line = lines.indices.contains(index) ? lines[index] : nil
        return place
      },
      name: { index in lines.indices.contains(index) ? "line \(lines[index])" : "row \(index + 1)" })
    let result = stored(notes, order: Array(notes.indices), naming: naming, location: location, log: &log)
    return (result, log.finished())
  }

  /// `notes` with their tags as Anki's package import stores them; each change reported in `log`.
  static func stored(_ notes: [Note], location: SourceLocation, log: inout DiagnosticLog) -> [Note] {
    stored(notes, order: idOrder(notes), naming: .writing(notes, at: location), location: location, log: &log)
  }

  /// How the changes to a note's tags are told: the verb (`written as`, `read as`), where each
  /// note is and what it is called (`note 17`, `line 4`), by its index.
  private struct Naming {
    var verb: String
    var place: (Int) -> SourceLocation
    var name: (Int) -> String

    /// Notes being written, each named by its id.
    static func writing(_ notes: [Note], at location: SourceLocation) -> Naming {
      Naming(
        verb: "written", place: { location.item("note \(notes[$0].id)") }, name: { "note \(notes[$0].id)" })
    }
  }

  /// `notes` with their tags as Anki stores them when it meets the notes in `order` (indices).
  private static func stored(
    _ notes: [Note], order: [Int], naming: Naming, location: SourceLocation, log: inout DiagnosticLog
  ) -> [Note] {
    var result = notes
    var registry = Registry()
    // Real decks give thousands of notes the same few tags: each distinct tag is resolved once
    // (a spelling, once met, stays Anki's for the rest of the import).
    var resolvedTags: [String: Resolved] = [:]
    var noteKeys: [String] = []
    for index in order {
      let note = notes[index]
      // The tags as written, made only once one changes: until then they are the note's own.
      var tags: [String]?
      noteKeys.removeAll(keepingCapacity: true)
      var changes: [String] = []
      for (position, tag) in note.tags.enumerated() {
        let resolved: Resolved
        if let known = resolvedTags[tag] {
          resolved = known
        } else {
          resolved = resolve(tag, registry: &registry, noteName: naming.name(index))
          resolvedTags[tag] = resolved
        }
        guard let spelled = resolved.spelled else {
          if tags == nil { tags = Array(note.tags[..<position]) }
          changes.append(
            "tag '\(MediaFileName.visible(tag))' is empty once spaces and control characters are removed; it is left out"
          )
          continue
        }
        // The spelling Anki gives a tag is the same under case folding, so the key is the tag's.
        guard !noteKeys.contains(resolved.key) else {
          let why =
            resolved.unchanged
            ? "a tag the note has already"
            : "the tag '\(spelled)' for Anki, which the note has already (Anki compares tags ignoring case)"
          if tags == nil { tags = Array(note.tags[..<position]) }
          changes.append("tag '\(MediaFileName.visible(tag))' is \(why); it is left out")
          continue
        }
        noteKeys.append(resolved.key)
        if !resolved.unchanged, tags == nil { tags = Array(note.tags[..<position]) }
        tags?.append(spelled)
        if !resolved.unchanged {
          changes.append(
            "tag '\(MediaFileName.visible(tag))' is \(naming.verb) as '\(spelled)', as Anki's import stores it (\(resolved.reasons.joined(separator: "; ")))"
          )
        }
      }
      guard let tags, !changes.isEmpty else { continue }
      result[index].tags = tags
      for change in changes {
        log.reportLimited(.tagChanged, at: naming.place(index), summaryAt: location, change)
      }
    }
    return result
  }

  /// One tag as Anki makes it before it meets the others: its spelling (nil when nothing is left
  /// of it), why that differs from the tag, and the key Anki compares it by.
  private struct Prepared {
    var levelled: String?
    var reasons: [String] = []
    var key = ""
  }

  /// One tag as Anki stores it in an import: its spelling (nil when nothing is left of it), why
  /// that differs from the tag, the key Anki compares it by, and whether it is the tag as given.
  private struct Resolved {
    var spelled: String?
    var reasons: [String]
    var key: String
    var unchanged: Bool
  }

  /// `tag` made ready and spelled as Anki spells it, met first in the note named `noteName`.
  private static func resolve(_ tag: String, registry: inout Registry, noteName: String) -> Resolved {
    let prepared = prepare(tag)
    guard let levelled = prepared.levelled else {
      return Resolved(spelled: nil, reasons: [], key: "", unchanged: false)
    }
    let (spelled, first) = registry.spelling(of: levelled, key: prepared.key, noteName: noteName)
    var reasons = prepared.reasons
    if let first, differs(spelled, levelled) {
      reasons.append(
        "Anki spells it as the tag '\(first.spelling)' it meets first (\(first.noteName)), as it compares tags ignoring case"
      )
    }
    return Resolved(
      spelled: spelled, reasons: reasons, key: prepared.key, unchanged: reasons.isEmpty && !differs(spelled, tag))
  }

  /// `tag` made ready: cleaned, in NFC, its empty levels named.
  private static func prepare(_ tag: String) -> Prepared {
    let cleaned = CollectionValidation.isCleanTag(tag) ? tag : CollectionValidation.cleanedTag(tag)
    guard !cleaned.isEmpty else { return Prepared(levelled: nil) }
    var reasons: [String] = []
    if differs(cleaned, tag) { reasons.append("Anki treats spaces and control characters as separators") }
    let composed = cleaned.canonicallyComposed
    if differs(composed, cleaned) { reasons.append("Anki brings tags into Unicode NFC") }
    let levelled = withBlankLevels(composed)
    if differs(levelled, composed) { reasons.append("Anki names an empty level 'blank'") }
    return Prepared(levelled: levelled, reasons: reasons, key: FullCaseFolding.key(levelled))
  }

  /// The tags Anki has met so far in an import, by ``FullCaseFolding`` key: the spelling it
  /// stores and the name of the note that brought it.
  private struct Registry {
    struct Entry {
      var spelling: String
      var noteName: String
    }
    private var entries: [String: Entry] = [:]

    /// How Anki spells `tag` (NFC, no empty levels; `key` its ``FullCaseFolding`` key) of the
    /// note named `noteName`, and the tag met before
    /// whose spelling it takes (nil when none): a tag that is the same under case folding, else
    /// the longest run of leading levels that is one. The result is then met too.
    mutating func spelling(of tag: String, key: String, noteName: String) -> (String, Entry?) {
      if let entry = entries[key] { return (entry.spelling, entry) }
      var spelled = tag
      var source: Entry?
      let levels = Deck.levels(of: tag)
      for count in stride(from: levels.count - 1, through: 1, by: -1) {
        let parent = levels[..<count].joined(separator: Deck.levelSeparator)
        guard let entry = entries[FullCaseFolding.key(parent)] else { continue }
        spelled = ([entry.spelling] + levels[count...]).joined(separator: Deck.levelSeparator)
        source = entry
        break
      }
      entries[key] = Entry(spelling: spelled, noteName: noteName)
      return (spelled, source)
    }
  }

  /// Whether `a` and `b` differ in any scalar (`==` on strings takes NFC and NFD as equal).
  private static func differs(_ a: String, _ b: String) -> Bool {
    !a.unicodeScalars.elementsEqual(b.unicodeScalars)
  }

  /// `tag` as Anki's import spells it before it meets other tags: without spaces and control
  /// characters, in NFC, each empty `::` level named `blank` (`a::::b` is `a::blank::b`); empty
  /// when nothing is left.
  package static func storedSpelling(_ tag: String) -> String { prepare(tag).levelled ?? "" }

  /// `tag` with each empty `::` level named `blank`, as Anki stores it.
  static func withBlankLevels(_ tag: String) -> String {
    guard tag.utf8.contains(UInt8(ascii: ":")) else { return tag }
    let levels = Deck.levels(of: tag)
    guard levels.count > 1, levels.contains(where: \.isEmpty) else { return tag }
    return levels.map { $0.isEmpty ? "blank" : $0 }.joined(separator: Deck.levelSeparator)
  }

  /// The indices of `notes` in the order of their ids, the order in which Anki imports them.
  private static func idOrder(_ notes: [Note]) -> [Int] {
    if zip(notes, notes.dropFirst()).allSatisfy({ $0.id < $1.id }) { return Array(notes.indices) }
    return notes.indices.sorted { notes[$0].id < notes[$1].id }
  }
}
