import Foundation

/// The decks a source names by name only (a CSV file's rows, an app's cards), with their
/// parents, matched ignoring case as Anki matches deck names. Each gets an id derived from its
/// name ("Default" is deck 1), so the same names always give the same ids.
package struct DeckTable {
  /// The decks, in the order they were first named.
  package private(set) var decks: [Deck] = []
  private var idByKey: [String: Int64] = [:]

  /// No decks yet.
  package init() {}

  /// The id of the deck named `name` (`A::B`), adding it and its missing parents first.
  package mutating func id(for name: String) -> Int64 {
    let key = name.lowercased()
    if let id = idByKey[key] { return id }
    let components = name.components(separatedBy: Deck.levelSeparator)
    if components.count > 1 {
      _ = id(for: components.dropLast().joined(separator: Deck.levelSeparator))
    }
    let id = key == "default" ? 1 : DerivedID.id(for: "deck\u{1F}" + name)
    var unique = id
    while decks.contains(where: { $0.id == unique }) { unique += 1 }
    decks.append(Deck(id: unique, name: name))
    idByKey[key] = unique
    return unique
  }

  /// Gives the deck named `name` (added with its parents if it is new) the description Anki
  /// shows on its overview: HTML, or Markdown when `isMarkdown`.
  package mutating func describe(_ name: String, as description: String, isMarkdown: Bool) {
    let id = id(for: name)
    guard let index = decks.firstIndex(where: { $0.id == id }) else { return }
    decks[index].description = description
    decks[index].descriptionIsMarkdown = isMarkdown
  }
}
