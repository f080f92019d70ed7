import Foundation

/// The decks a source names by name only (a CSV file's rows, an app's cards), with their
/// parents, matched ignoring case as Anki matches deck names. Each gets an id derived from its
/// name ("Default" is deck 1), so the same names always give the same ids, and the name Anki's
/// import gives it: the spelling of its parent already known, then its own level (`lang::verbs`
/// after `Lang` is `Lang::verbs`; `default` is `Default`).
package struct DeckTable {
  /// The decks it added, in the order they were first named.
  package private(set) var decks: [Deck] = []
  private var idByKey: [String: Int64] = [:]
  private var nameByKey: [String: String] = [:]
  private var takenIDs: Set<Int64> = []

  /// No decks yet.
  package init() {}

  /// The decks a source defines itself (a JSON document's `decks`): a name matching one of
  /// theirs, ignoring case, gives its id, and no added deck takes one of their ids. They are not
  /// among ``decks``.
  package init(known: [Deck]) {
    for deck in known {
      takenIDs.insert(deck.id)
      let key = Deck.matchingKey(deck.name)
      if idByKey[key] == nil {
        idByKey[key] = deck.id
        nameByKey[key] = deck.name
      }
    }
  }

  /// The id of the deck named `name`, ignoring case, if it is known or added; nil otherwise.
  package func existingID(for name: String) -> Int64? { idByKey[Deck.matchingKey(name)] }

  /// The id of the deck named `name` (`A::B`), adding it and its missing parents first.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at `location` when the name has more than
  ///   ``Deck/maximumLevels`` levels (nothing is added).
  package mutating func id(for name: String, at location: SourceLocation) throws -> Int64 {
    if let id = idByKey[Deck.matchingKey(name)] { return id }
    if let problem = Deck.depthProblem(ofName: name) { throw DeckError(.corrupt, at: location, problem) }
    let components = Deck.levels(of: name)
    var id: Int64 = 1
    var parentName: String?
    for depth in 1...components.count {
      let levelName = depth == components.count ? name : components[..<depth].joined(separator: Deck.levelSeparator)
      let key = Deck.matchingKey(levelName)
      if let known = idByKey[key] {
        id = known
        parentName = nameByKey[key] ?? levelName
        continue
      }
      var unique = key == "default" ? 1 : DerivedID.id(for: "deck\u{1F}" + levelName)
      while takenIDs.contains(unique) { unique += 1 }
      let spelled =
        key == "default"
        ? "Default" : parentName.map { $0 + Deck.levelSeparator + components[depth - 1] } ?? levelName
      decks.append(Deck(id: unique, name: spelled))
      idByKey[key] = unique
      nameByKey[key] = spelled
      takenIDs.insert(unique)
      id = unique
      parentName = spelled
    }
    return id
  }

  /// Gives the deck named `name` (added with its parents if it is new) the description Anki
  /// shows on its overview: HTML, or Markdown when `isMarkdown`.
  ///
  /// - Throws: as ``id(for:at:)``.
  package mutating func describe(
    _ name: String, as description: String, isMarkdown: Bool, at location: SourceLocation
  ) throws {
    let id = try id(for: name, at: location)
    guard let index = decks.firstIndex(where: { $0.id == id }) else { return }
    decks[index].description = description
    decks[index].descriptionIsMarkdown = isMarkdown
  }
}
