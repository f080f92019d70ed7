import DeckCore
import JSONCore

/// The members of Anki's schema-11 decks, note types, fields, templates and option groups that the model keeps
/// as ``AnkiProperty`` values rather than as properties of its own, in one place for the reader
/// and the writer:
///
/// * the keys the model's own properties are read from and written under, which a property
///   never replaces (``ownedKeys(of:)``);
/// * the values the writer gives a fresh deck or note type (``defaults(of:)``): a member read
///   with that value is not kept, so a deck at its defaults has no properties and a document
///   written from it is what it was before properties were kept.
enum Schema11Properties {
  /// What the properties belong to.
  enum Owner {
    case normalDeck
    case filteredDeck
    case noteType
    case field
    case template
    case optionGroup
  }

  /// What a deck of `kind` is.
  static func owner(of kind: Deck.Kind) -> Owner {
    if case .filtered = kind { return .filteredDeck }
    return .normalDeck
  }

  /// The keys whose values come from the model's own properties.
  static func ownedKeys(of owner: Owner) -> Set<String> {
    switch owner {
    case .normalDeck: deckKeys.union(["conf"])
    case .filteredDeck: deckKeys.union(["resched", "terms"])
    case .noteType:
      [
        "id", "name", "type", "mod", "sortf", "tmpls", "flds", "css", "latexPre", "latexPost", "latexsvg",
        // Derived from the templates as Anki derives it (`TemplateRequirements`).
        "req", "originalStockKind", "originalId", "crowdanki_uuid",
      ]
    case .field:
      [
        "name", "ord", "sticky", "rtl", "font", "size", "description", "plainText", "collapsed",
        "excludeFromSearch", "id", "tag", "preventDeletion",
      ]
    case .template: ["name", "ord", "qfmt", "afmt", "bqfmt", "bafmt", "did", "bfont", "bsize", "id"]
    // A property may replace one of a group's settings, but not a whole sub-object of them.
    case .optionGroup: ["id", "name", "mod", "new", "rev", "lapse"]
    }
  }

  private static let deckKeys: Set<String> = ["id", "mod", "name", "desc", "md", "crowdanki_uuid", "dyn"]

  /// What the writer gives every deck: its sync state, the day's study counts and whether it
  /// is collapsed in the deck list and in the browser, each as a fresh deck has it (Anki 26.9
  /// makes every deck collapsed in both, `Default` included; Anki 2.1's legacy decks were not).
  static let deckCommonDefaults: [(key: String, value: JSONValue)] = [
    ("usn", .int(0)),
    ("lrnToday", .array([.int(0), .int(0)])),
    ("revToday", .array([.int(0), .int(0)])),
    ("newToday", .array([.int(0), .int(0)])),
    ("timeToday", .array([.int(0), .int(0)])),
    ("collapsed", .bool(true)),
    ("browserCollapsed", .bool(true)),
  ]

  /// What the writer gives a normal deck besides: no limits of its own.
  static let normalDeckDefaults: [(key: String, value: JSONValue)] = [
    ("extendNew", .int(0)),
    ("extendRev", .int(0)),
    ("reviewLimit", .null),
    ("newLimit", .null),
    ("reviewLimitToday", .null),
    ("newLimitToday", .null),
    ("desiredRetention", .null),
  ]

  /// What the writer gives a filtered deck besides: Anki's default preview delays.
  static let filteredDeckDefaults: [(key: String, value: JSONValue)] = [
    ("separate", .bool(true)),
    ("delays", .null),
    ("previewDelay", .int(0)),
    ("previewAgainSecs", .int(60)),
    ("previewHardSecs", .int(600)),
    ("previewGoodSecs", .int(0)),
  ]

  /// What the writer gives a note type besides its own properties: no sync and no last deck.
  static let noteTypeDefaults: [(key: String, value: JSONValue)] = [("usn", .int(0)), ("did", .null)]

  /// Every default of `owner`'s members.
  static func defaults(of owner: Owner) -> [(key: String, value: JSONValue)] {
    switch owner {
    case .normalDeck: deckCommonDefaults + normalDeckDefaults
    case .filteredDeck: deckCommonDefaults + filteredDeckDefaults
    case .noteType: noteTypeDefaults
    case .optionGroup: [("usn", .int(0))]
    case .field, .template: []
    }
  }

  /// What Anki takes for a key a schema-11 deck leaves out, where that differs from the
  /// writer's default: a deck written before Anki kept these was not collapsed, and a filtered
  /// deck written before Anki had preview delays has none (0 seconds), where a fresh one has
  /// Anki's 60 and 600.
  static func absentValues(of owner: Owner) -> [(key: String, value: JSONValue)] {
    let common: [(key: String, value: JSONValue)] = [("collapsed", .bool(false)), ("browserCollapsed", .bool(false))]
    switch owner {
    case .normalDeck: return common
    case .filteredDeck: return common + [("previewAgainSecs", .int(0)), ("previewHardSecs", .int(0))]
    case .noteType, .field, .template, .optionGroup: return []
    }
  }

  /// The properties among `members` (a schema-11 object's members, or those made from a
  /// schema-18 row): each member whose key the model does not own and whose value is not the
  /// writer's default, sorted by key; of a key given twice, the last value, as Anki reads it. A
  /// deck of a collection without a key of ``absentValues(of:)`` has the value Anki takes for
  /// it; with `absentKeysAsAnkiReads` false (an object CrowdAnki's export wrote, which leaves
  /// those keys out and whose import keeps what the deck had), a key left out is no property.
  static func properties(
    _ members: [(key: String, value: JSONValue)], of owner: Owner, absentKeysAsAnkiReads: Bool = true
  ) -> [AnkiProperty] {
    let owned = ownedKeys(of: owner)
    var defaultTexts: [String: String] = [:]
    for (key, value) in defaults(of: owner) { defaultTexts[key] = JSONWriter.text(of: value) }
    var texts: [String: String] = [:]
    if absentKeysAsAnkiReads {
      for (key, value) in absentValues(of: owner) { texts[key] = JSONWriter.text(of: value) }
    }
    for (key, value) in members where !owned.contains(key) { texts[key] = JSONWriter.text(of: value) }
    return texts.filter { defaultTexts[$0.key] != $0.value }.sorted { $0.key < $1.key }.map {
      AnkiProperty(key: $0.key, jsonText: $0.value)
    }
  }

  /// The value of `property` (a setting or a property), or nil when its text is not JSON.
  static func value(of property: AnkiProperty) -> JSONValue? {
    try? JSONParser.parse(Array(property.jsonText.utf8), options: .anki)
  }

  /// Whether the writer can lay `property` over `owner`'s members: its key is not one the model
  /// owns and its text is JSON.
  static func isWritable(_ property: AnkiProperty, of owner: Owner) -> Bool {
    !ownedKeys(of: owner).contains(property.key) && value(of: property) != nil
  }

  /// `generated` with `properties` laid over it: each replaces the generated value of its key or
  /// is added after the generated members. A property ``isWritable(_:of:)`` refuses is passed
  /// over (``PackageSelection`` reports it).
  static func object(
    _ generated: [(key: String, value: JSONValue)], with properties: [AnkiProperty], of owner: Owner
  ) -> JSONValue {
    guard !properties.isEmpty else { return .object(generated) }
    let owned = ownedKeys(of: owner)
    var members = generated
    for property in properties where !owned.contains(property.key) {
      guard let value = value(of: property) else { continue }
      if let index = members.firstIndex(where: { $0.key == property.key }) {
        members[index].value = value
      } else {
        members.append((property.key, value))
      }
    }
    return .object(members)
  }
}
