import DeckCore

/// The one deck tree a CrowdAnki folder holds, found in a collection's flat list of `A::B` names,
/// and the deck each note is written under.
///
/// When every card sits under one top-level deck, that deck is the root. When cards sit under
/// several, a root named after the folder is added above them (reported as `deck-root-added`),
/// since a CrowdAnki folder holds exactly one deck. CrowdAnki itself has no such rule: its
/// export refuses "all decks", and its snapshot writes one folder per deck.
struct DeckTree {
  /// The top deck.
  let root: Deck
  /// Whether ``root`` was made up by deckport to hold several top-level decks.
  let rootAdded: Bool
  /// The option groups the written decks use (a deck made up here uses group 1).
  let optionGroupIDs: Set<Int64>
  private let childrenByParent: [Int64: [Deck]]
  private let deckIDs: Set<Int64>

  /// Picks the top-level deck whose tree holds the cards, or adds a root named `folderName`
  /// above the top-level decks that hold cards. Decks left out are reported only when they hold
  /// something a reader would miss (a description, an option group other than the default, a
  /// filtered deck's search); an empty plain deck such as Anki's `Default` is passed over silently.
  init(_ collection: DeckCollection, folderName: String, location: SourceLocation, warnings: inout [Diagnostic]) {
    let filtered = Set(collection.decks.filter { if case .filtered = $0.kind { true } else { false } }.map(\.id))
    let usedDecks = Set(collection.cards.map(Self.homeDeck))
    let usedTops: [String] = Array(
      Set(collection.decks.filter { usedDecks.contains($0.id) }.compactMap { $0.nameComponents.first })
    ).sorted()
    let tops = collection.decks.filter { $0.nameComponents.count == 1 && !filtered.contains($0.id) }
    let keptTops: [String]
    if usedTops.count > 1 {
      keptTops = usedTops
      let name = folderName.isEmpty ? "Deck" : folderName
      root = Deck(id: DerivedID.id(for: "crowdanki added root\u{1F}" + name), name: name)
      rootAdded = true
      warnings.append(
        Diagnostic(
          .deckRootAdded, at: location,
          "cards sit under \(usedTops.count) top-level decks (\(usedTops.map { "'\($0)'" }.joined(separator: ", "))), but a CrowdAnki folder holds one deck; they are written as subdecks of a new top deck '\(name)' (the folder's name), so importing the folder into Anki nests them under it (\(usedTops.map { "'\(name)::\($0)'" }.joined(separator: ", ")))"
        ))
    } else {
      let fallback: String = tops.first(where: { $0.id != 1 })?.name ?? tops.first?.name ?? "Default"
      let topName: String = usedTops.first ?? fallback
      keptTops = [topName]
      root =
        tops.first { $0.name == topName } ?? Self.namedRoot(under: topName, in: collection, filtered: filtered)
        ?? Deck(id: DerivedID.id(for: "deck\u{1F}" + topName), name: topName)
      rootAdded = false
    }
    // Each kept deck under its parent; a parent level missing from the collection is made up so
    // that the deck keeps its full name.
    var decksByName: [String: Deck] = [:]
    for deck in collection.decks where !filtered.contains(deck.id) {
      decksByName[deck.name] = decksByName[deck.name] ?? deck
    }
    let top = root
    let added = rootAdded
    var childLists: [Int64: [Deck]] = [:]
    var kept: Set<Int64> = [top.id]
    func place(_ deck: Deck) {
      guard !kept.contains(deck.id) else { return }
      kept.insert(deck.id)
      let parentName = deck.nameComponents.dropLast().joined(separator: Deck.levelSeparator)
      let parent: Deck
      if deck.nameComponents.count == 1 {
        parent = top
      } else if let known = decksByName[parentName] {
        parent = known
      } else {
        parent = Deck(id: DerivedID.id(for: "deck\u{1F}" + parentName), name: parentName)
        decksByName[parentName] = parent
      }
      if parent.id != top.id || added { place(parent) }
      childLists[parent.id, default: []].append(deck)
    }
    for deck in collection.decks where !filtered.contains(deck.id) {
      guard let topName = deck.nameComponents.first, keptTops.contains(topName) else { continue }
      if !added && deck.id == top.id { continue }
      place(deck)
    }
    for deck in collection.decks where !kept.contains(deck.id) {
      if filtered.contains(deck.id) {
        warnings.append(
          Diagnostic(
            .deckDropped, at: location,
            "filtered deck '\(deck.name)' is not written (CrowdAnki does not export filtered decks); its cards are written under their home decks"
          ))
      } else if Self.carriesData(deck) {
        warnings.append(
          Diagnostic(
            .deckDropped, at: location,
            "deck '\(deck.name)' holds no cards and is outside '\(top.name)'; it is not written, and with it its description or option group"
          ))
      }
    }
    childrenByParent = childLists.mapValues { $0.sorted { $0.name < $1.name } }
    deckIDs = kept
    var optionGroups = Set<Int64>()
    for deck in [top] + childLists.values.joined() {
      if case .normal(let optionsID) = deck.kind { optionGroups.insert(optionsID) }
    }
    optionGroupIDs = optionGroups
  }

  /// The deck that is the root when the collection has no deck named `topName` but decks below
  /// it: the one nearest the top, when every other deck below `topName` is below it. A CrowdAnki
  /// folder exported from a subdeck has such a root, named in full (`A::B`), whose parents
  /// CrowdAnki's import makes as plain decks; written under a made-up `A`, the folder would give
  /// `A` a UUID and an option group, so that importing it where the original was imported
  /// renamed that `A` (`A_2`) and moved the deck below it. Nil when several decks below
  /// `topName` are side by side (they are then written below a made-up `A`).
  private static func namedRoot(under topName: String, in collection: DeckCollection, filtered: Set<Int64>) -> Deck? {
    let below = collection.decks.filter {
      !filtered.contains($0.id) && $0.nameComponents.count > 1 && $0.nameComponents.first == topName
    }
    guard let nearest = below.min(by: { $0.nameComponents.count < $1.nameComponents.count }) else { return nil }
    let path = nearest.nameComponents
    let allBelow = below.allSatisfy { Array($0.nameComponents.prefix(path.count)) == path }
    return allBelow ? nearest : nil
  }

  /// Whether an empty deck holds something beyond its name: a description, or an option group
  /// other than Anki's default (id 1).
  static func carriesData(_ deck: Deck) -> Bool {
    if !deck.description.isEmpty { return true }
    if case .normal(let optionsID) = deck.kind, optionsID != 1 { return true }
    return false
  }

  /// The deck a card belongs to: its home deck when it sits in a filtered deck.
  static func homeDeck(_ card: Card) -> Int64 {
    card.scheduling.originalDeckID != 0 ? card.scheduling.originalDeckID : card.deckID
  }

  /// The decks directly below `deck`, by name.
  func children(of deck: Deck) -> [Deck] { childrenByParent[deck.id] ?? [] }

  /// The name `deck` has in the folder: the root's whole name (or the folder name of an added
  /// root), and the last level of every other deck.
  func writtenName(of deck: Deck) -> String {
    deck.id == root.id ? deck.name : (deck.nameComponents.last ?? deck.name)
  }

  /// Each note under the home deck of its first card (notes without cards go to the top), in
  /// the collection's note order. A note whose cards sit in several decks is reported with
  /// `note-decks-split`, one warning naming how many notes and the first few.
  func notesByDeck(_ collection: DeckCollection, location: SourceLocation, warnings: inout [Diagnostic]) -> [Int64:
    [Note]]
  {
    var firstCard: [Int64: Card] = [:]
    var decksOfNote: [Int64: Set<Int64>] = [:]
    for card in collection.cards {
      decksOfNote[card.noteID, default: []].insert(Self.homeDeck(card))
      if let known = firstCard[card.noteID], known.templateOrdinal <= card.templateOrdinal { continue }
      firstCard[card.noteID] = card
    }
    let names = Dictionary(collection.decks.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    var result: [Int64: [Note]] = [:]
    var split: [String] = []
    for note in collection.notes {
      let deckID = firstCard[note.id].map(Self.homeDeck).flatMap { deckIDs.contains($0) ? $0 : nil } ?? root.id
      result[deckID, default: []].append(note)
      if let decks = decksOfNote[note.id], decks.count > 1 {
        let others = decks.filter { $0 != deckID }.map { "'\(names[$0] ?? String($0))'" }.sorted()
        split.append("note \(note.guid) in '\(names[deckID] ?? root.name)' (also \(others.joined(separator: ", ")))")
      }
    }
    if !split.isEmpty {
      warnings.append(
        Diagnostic(
          .noteDecksSplit, at: location,
          "\(split.count) note\(split.count == 1 ? " has" : "s have") cards in several decks, but a CrowdAnki folder puts each note in one deck; each is written under the deck of its first card, and importing the folder moves all its cards there: \(ShortList.text(split, separator: "; "))"
        ))
    }
    return result
  }
}
