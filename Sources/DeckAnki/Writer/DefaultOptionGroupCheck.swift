import DeckCore
import JSONCore

/// What Anki's import of a deck package (`.apkg`) does with option group 1: every collection has
/// its own group 1 ("Default"), and the import keeps it, ignoring the package's. Measured with
/// the real backend, for deckport's packages and for Anki's own export alike
/// (`test_an_apkg_whose_default_option_group_is_changed_says_anki_ignores_it`): a package whose
/// group 1 has 33 new cards a day, imported into a new or an existing collection, leaves that
/// collection's group 1 at its own 20; a group of another id is added. So a deck package whose
/// decks use group 1 with settings other than Anki's defaults gets a warning: those settings
/// reach Anki only from a collection package (`.colpkg`), or under another group's id.
enum DefaultOptionGroupCheck {
  /// The keys of a schema-11 option group that are not settings.
  private static let identity: Set<String> = ["id", "name", "mod", "usn"]

  /// A `deck-options-ignored` warning when `entries` (the schema-11 option groups written, by id)
  /// hold a group 1 whose settings differ from Anki's defaults and a deck of `collection` other
  /// than the "Default" deck uses it. (The package's "Default" deck is the importing
  /// collection's own, whose cards take that collection's settings in any case.)
  static func report(
    _ entries: [(id: Int64, json: JSONValue)], of collection: DeckCollection, location: SourceLocation,
    log: inout DiagnosticLog
  ) {
    guard collection.decks.contains(where: { $0.id != 1 && $0.kind == .normal(optionsID: 1) }),
      let group = entries.first(where: { $0.id == 1 })?.json, let members = group.members
    else { return }
    let defaults = DeckOptionsConversion.defaultEntry()
    var changed: [String] = []
    for (key, value) in members where !identity.contains(key) {
      guard let standard = defaults[key] else { continue }
      changed += differences(value, from: standard, at: key)
    }
    guard !changed.isEmpty else { return }
    let name = group["name"]?.string ?? "Default"
    log.report(
      .deckOptionsIgnored, at: location.item("option group '\(name)' (id 1)"),
      "its settings differ from Anki's defaults (\(ShortList.text(changed))), but Anki's import of an .apkg keeps the importing collection's own option group 1 and ignores these, as it does with its own packages; the package keeps them (a .colpkg restores them; decks given an option group of another id carry theirs)"
    )
  }

  /// The settings at `path` in which `value` differs from Anki's default `standard`, each as
  /// "new.perDay 33, not 20"; numbers are compared as the 32-bit floats Anki keeps when either
  /// is not whole. An empty list is a list not set (a collection made before Anki had the
  /// setting holds `easyDaysPercentages: []`), and `new.ints` is compared on the two values Anki
  /// reads (it reads the third as 0 whatever it holds).
  private static func differences(_ value: JSONValue, from standard: JSONValue, at path: String) -> [String] {
    if value.elements?.isEmpty == true { return [] }
    if path == "new.ints", let elements = value.elements, let standards = standard.elements {
      let read = zip(elements.prefix(2), standards.prefix(2)).allSatisfy { differences($0, from: $1, at: "").isEmpty }
      return read && elements.count >= 2 ? [] : ["\(path) \(excerpt(value)), not \(excerpt(standard))"]
    }
    if let members = value.members, standard.members != nil {
      return members.flatMap { key, inner in
        standard[key].map { differences(inner, from: $0, at: "\(path).\(key)") } ?? []
      }
    }
    if let a = value.double, let b = standard.double {
      let same = a == b || (a.rounded() != a || b.rounded() != b) && Float(a) == Float(b)
      return same ? [] : ["\(path) \(excerpt(value)), not \(excerpt(standard))"]
    }
    if let elements = value.elements, let standards = standard.elements, elements.count == standards.count {
      let same = zip(elements, standards).allSatisfy { differences($0, from: $1, at: path).isEmpty }
      return same ? [] : ["\(path) \(excerpt(value)), not \(excerpt(standard))"]
    }
    return value == standard ? [] : ["\(path) \(excerpt(value)), not \(excerpt(standard))"]
  }

  private static func excerpt(_ value: JSONValue) -> String {
    Schema11ValueFitting.excerpt(value, limit: 30)
  }
}
