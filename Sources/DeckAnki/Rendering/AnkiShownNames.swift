import DeckCore

/// The names Anki shows for a collection's decks and note types once it has opened it: what
/// `{{Deck}}`, `{{Subdeck}}` and `{{Type}}` show, and what `deckport render` names.
///
/// A deck's name is the name Anki stores (``Deck/storedName(_:)``: ` A :: B ` is `A::B`). Of
/// two decks, or two note types, whose names Anki takes for one (ignoring case: ``TakenNames``),
/// as a legacy package may hold them, Anki renames one as it opens the collection, adding `_`
/// (`alpha_`, `Twin_`); which one it renames differs from one opening to the next (it meets them
/// in the order of a hash map). These names are one of Anki's outcomes, the one that keeps the
/// name for deck 1, then for the deck or note type first in the collection's order (the deck a
/// package writer keeps, ``SameNamedDecks``), and ``renamed`` says which it chose.
package struct AnkiShownNames: Sendable {
  /// A deck or note type these names show renamed because another has its name.
  package struct Renamed: Sendable, Equatable {
    /// `deck` or `note type`.
    package var what: String
    /// Its id.
    package var id: Int64
    /// Its name as the file holds it.
    package var name: String
    /// The name shown for it.
    package var shown: String
    /// The id of the one that keeps the name.
    package var keptID: Int64
    /// The name of the one that keeps it, as the file holds it.
    package var keptName: String
  }

  /// Each deck's full name and its last level, by id.
  package private(set) var decks: [Int64: (name: String, last: String)] = [:]
  /// Each note type's name, by id.
  package private(set) var noteTypes: [Int64: String] = [:]
  /// The decks and note types shown renamed, decks first, each in the order met.
  package private(set) var renamed: [Renamed] = []

  /// The names of `collection`'s decks and note types.
  package init(_ collection: DeckCollection) {
    var deckNames = Taking(what: "deck")
    for deck in collection.decks.filter({ $0.id == 1 }) + collection.decks.filter({ $0.id != 1 }) {
      let shown = deckNames.take(Deck.storedName(deck.name), id: deck.id, name: deck.name)
      // `_` is added to the last level, which never ends in `:`.
      decks[deck.id] = (shown, Deck.levels(of: shown).last ?? "")
    }
    var noteTypeNames = Taking(what: "note type")
    for noteType in collection.noteTypes {
      noteTypes[noteType.id] = noteTypeNames.take(noteType.name, id: noteType.id, name: noteType.name)
    }
    renamed = deckNames.renamed + noteTypeNames.renamed
  }

  /// A warning for each deck and note type of `renamed`, naming it, the one that keeps the
  /// name, and that Anki may rename the other instead.
  package static func warnings(for renamed: [Renamed], at location: SourceLocation) -> [Diagnostic] {
    renamed.map { item in
      Diagnostic(
        item.what == "deck" ? .deckRenamed : .noteTypeRenamed,
        at: location.item("\(item.what) '\(item.name)' (id \(item.id))"),
        "\(item.what) \(item.keptID), '\(MediaFileName.visible(item.keptName))', has the same name (Anki compares names ignoring case), and Anki renames one of the two when it opens the collection, but which one differs from one opening to the next; this one is shown as '\(MediaFileName.visible(item.shown))', as Anki shows it when it renames this one, and Anki may rename the other instead"
      )
    }
  }

  /// Names taken in turn, each renamed one recorded with the one that keeps its name.
  private struct Taking {
    let what: String
    var taken = TakenNames()
    /// Who shows each name taken, by its key.
    var holders: [String: (id: Int64, name: String)] = [:]
    var renamed: [Renamed] = []

    /// The name shown for `stored`, the name Anki stores for the item `id` a file names `name`.
    mutating func take(_ stored: String, id: Int64, name: String) -> String {
      let shown = taken.take(stored, suffix: "_")
      if !shown.isExactly(stored), let kept = holders[FullCaseFolding.key(stored)] {
        renamed.append(Renamed(what: what, id: id, name: name, shown: shown, keptID: kept.id, keptName: kept.name))
      }
      holders[FullCaseFolding.key(shown)] = (id, name)
      return shown
    }
  }
}
