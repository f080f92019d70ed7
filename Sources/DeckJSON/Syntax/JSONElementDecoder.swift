import JSONCore

/// Decodes the elements of a deck's `notes`, `cards` and `reviews` arrays through the JSON core
/// (``JSONParser``), many times faster than `JSONDecoder` (which takes some 50 µs a note here).
///
/// It is a shortcut, never a second opinion: it accepts only what it is sure `JSONDecoder`
/// decodes to the same value (an object whose keys occur once, integers without fraction or
/// exponent that fit, strings, no `null` where a value is optional) and returns nil for
/// everything else, which the reader then hands to `JSONDecoder`, so odd documents and every
/// error are judged exactly as before. The bytes have passed ``JSONSyntaxPass``.
enum JSONElementDecoder {
  static func note(_ bytes: UnsafeRawBufferPointer) -> NoteJSON? {
    guard let members = Members(bytes), let noteType = members.required("noteType", reference),
      let fields = members.required("fields", noteFields), let id = members.optional("id", \.integerValue),
      let guid = members.optional("guid", \.string), let tags = members.optional("tags", strings),
      let modified = members.optional("modified", \.integerValue)
    else { return nil }
    return NoteJSON(id: id, guid: guid, noteType: noteType, fields: fields, tags: tags, modified: modified)
  }

  static func card(_ bytes: UnsafeRawBufferPointer) -> CardJSON? {
    guard let members = Members(bytes), let id = members.required("id", \.integerValue),
      let note = members.required("note", \.integerValue), let template = members.required("template", int),
      let deck = members.required("deck", reference), let modified = members.optional("modified", \.integerValue),
      let scheduling = members.optional("scheduling", schedulingValue)
    else { return nil }
    return CardJSON(id: id, note: note, template: template, deck: deck, modified: modified, scheduling: scheduling)
  }

  static func review(_ bytes: UnsafeRawBufferPointer) -> ReviewJSON? {
    guard let members = Members(bytes), let id = members.required("id", \.integerValue),
      let card = members.required("card", \.integerValue), let button = members.required("button", int),
      let interval = members.required("interval", \.integerValue),
      let lastInterval = members.required("lastInterval", \.integerValue),
      let easeFactor = members.required("easeFactor", int), let duration = members.required("duration", int),
      let kind = members.required("kind", int)
    else { return nil }
    return ReviewJSON(
      id: id, card: card, button: button, interval: interval, lastInterval: lastInterval, easeFactor: easeFactor,
      duration: duration, kind: kind)
  }

  /// A card's scheduling: eleven whole numbers and `data`, a string.
  private static func schedulingValue(_ value: JSONValue) -> CardJSON.SchedulingJSON? {
    guard let members = Members(value), let type = members.required("type", int),
      let queue = members.required("queue", int), let due = members.required("due", \.integerValue),
      let interval = members.required("interval", int), let easeFactor = members.required("easeFactor", int),
      let reviews = members.required("reviews", int), let lapses = members.required("lapses", int),
      let remainingSteps = members.required("remainingSteps", int), let flags = members.required("flags", int),
      let originalDue = members.required("originalDue", \.integerValue),
      let originalDeck = members.required("originalDeck", \.integerValue), let data = members.required("data", \.string)
    else { return nil }
    return CardJSON.SchedulingJSON(
      type: type, queue: queue, due: due, interval: interval, easeFactor: easeFactor, reviews: reviews,
      lapses: lapses, remainingSteps: remainingSteps, flags: flags, originalDue: originalDue,
      originalDeck: originalDeck, data: data)
  }

  /// A reference: an id (a whole number) or a name (a string), as ``Reference`` decodes one.
  private static func reference(_ value: JSONValue) -> Reference? {
    switch value {
    case .integer(let id): .id(id)
    case .string(let name): .name(name)
    default: nil
    }
  }

  private static func int(_ value: JSONValue) -> Int? { value.integerValue.map { Int($0) } }

  /// An array of strings.
  private static func strings(_ value: JSONValue) -> [String]? {
    guard let elements = value.elements else { return nil }
    let strings = elements.compactMap(\.string)
    return strings.count == elements.count ? strings : nil
  }

  /// A note's fields: an object of strings, names not repeated (compared as Swift compares
  /// strings, as a decoder's keys are).
  private static func noteFields(_ value: JSONValue) -> NoteFieldsJSON? {
    guard let members = value.members, Set(members.map(\.key)).count == members.count else { return nil }
    var pairs: [(name: String, value: String)] = []
    pairs.reserveCapacity(members.count)
    for member in members {
      guard let text = member.value.string else { return nil }
      pairs.append((member.key, text))
    }
    return NoteFieldsJSON(pairs)
  }

  /// The members of an object whose keys occur once (compared as a decoder compares them).
  private struct Members {
    let values: [String: JSONValue]

    init?(_ bytes: UnsafeRawBufferPointer) {
      guard let value = try? JSONParser.parse(buffer: bytes) else { return nil }
      self.init(value)
    }

    init?(_ value: JSONValue) {
      guard let members = value.members else { return nil }
      var values: [String: JSONValue] = [:]
      values.reserveCapacity(members.count)
      for member in members {
        guard values.updateValue(member.value, forKey: member.key) == nil else { return nil }
      }
      self.values = values
    }

    /// The value of `key` converted, or nil when it is missing or does not convert.
    func required<Value>(_ key: String, _ convert: (JSONValue) -> Value?) -> Value? {
      values[key].flatMap(convert)
    }

    /// `.some(nil)` when `key` is missing, `.some(value)` when it converts, nil when it is there
    /// but does not convert (`null` included: the decoder's call).
    func optional<Value>(_ key: String, _ convert: (JSONValue) -> Value?) -> Value?? {
      guard let value = values[key] else { return .some(nil) }
      return convert(value).map { .some($0) }
    }
  }
}

extension JSONValue {
  /// The value when this is an integer (no fraction or exponent, fits in 64 bits).
  fileprivate var integerValue: Int64? {
    if case .integer(let number) = self { return number }
    return nil
  }
}
