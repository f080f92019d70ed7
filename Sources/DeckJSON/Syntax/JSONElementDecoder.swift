import DeckCore
import JSONCore

/// Decodes the elements of a deck's `notes`, `cards` and `reviews` arrays straight from their
/// bytes into the format's types: keys are compared as bytes, whole numbers read from their
/// digits, strings without escapes made from their bytes, and no JSON value is built on the way.
/// It is many times as fast as `JSONDecoder` (which takes some 50 µs a note here).
///
/// It is a shortcut, never a second opinion: it accepts only what it is sure `JSONDecoder`
/// decodes to the same value (an object whose keys are plain ASCII and occur once, integers
/// without fraction or exponent that fit, strings whose `\u` escapes pair their surrogates, no
/// `null` where a value is optional, no key the format lacks) and returns nil for
/// everything else, which the reader then hands to `JSONDecoder`, so odd documents and every
/// error are judged exactly as before.
///
/// It reads an element in one of two ways:
/// * ``note(_:checking:)``, ``card(_:checking:)``, ``review(_:checking:)`` and
///   ``element(_:checked:fieldNames:)`` take an element that ``JSONSyntaxPass`` has checked (its
///   grammar and its UTF-8);
/// * ``element(_:in:at:fieldNames:)`` takes one the pass has not checked, during the pass, and
///   ``element(_:unchecked:fieldNames:)`` (and the others `checking`) one it passed over: they
///   then check what they accept as strictly as the pass would (no control character or broken
///   UTF-8 in a string, no leading zero, nothing skipped unread), so that an element they decode
///   needs no other check, and leave everything else to the pass or, for an element passed over,
///   to a reading of the whole document.
enum JSONElementDecoder {
  /// A decoded element of one of the split arrays.
  enum Element {
    case note(NoteJSON)
    case card(CardJSON)
    case review(ReviewJSON)
  }

  /// The element of `section` that starts at `start` in `bytes`, not yet checked by the syntax
  /// pass, and the offset after it; nil when not sure or when its text is not what the pass
  /// accepts. `fieldNames` carries the field names of the last note decoded to the next, which
  /// usually repeats them and then shares them.
  static func element(
    _ section: DeckJSONReader.Section, in bytes: UnsafeRawBufferPointer, at start: Int, fieldNames: inout [String]
  ) -> (element: Element, end: Int)? {
    var cursor = Cursor(bytes, at: start, checking: true)
    return element(section, &cursor, fieldNames: &fieldNames).map { ($0, cursor.index) }
  }

  /// The element of `section` that is all of `bytes`, which the syntax pass has checked; nil
  /// when not sure. `fieldNames` as in ``element(_:in:at:fieldNames:)``.
  static func element(
    _ section: DeckJSONReader.Section, checked bytes: UnsafeRawBufferPointer, fieldNames: inout [String]
  ) -> Element? {
    whole(bytes, checking: false) { element(section, &$0, fieldNames: &fieldNames) }
  }

  /// The element of `section` that is all of `bytes`, which the syntax pass passed over
  /// unchecked: checked here as strictly as the pass would check it; nil when not sure or not
  /// what the pass accepts. `fieldNames` as in ``element(_:in:at:fieldNames:)``.
  static func element(
    _ section: DeckJSONReader.Section, unchecked bytes: UnsafeRawBufferPointer, fieldNames: inout [String]
  ) -> Element? {
    whole(bytes, checking: true) { element(section, &$0, fieldNames: &fieldNames) }
  }

  /// What `read` reads from the start of `bytes` when nothing but white space follows it.
  private static func whole<Value>(
    _ bytes: UnsafeRawBufferPointer, checking: Bool, _ read: (inout Cursor) -> Value?
  ) -> Value? {
    var cursor = Cursor(bytes, at: 0, checking: checking)
    guard let value = read(&cursor), cursor.isAtEnd else { return nil }
    return value
  }

  /// The element of `section` at the cursor, `fieldNames` carried in and out.
  private static func element(
    _ section: DeckJSONReader.Section, _ cursor: inout Cursor, fieldNames: inout [String]
  ) -> Element? {
    cursor.fieldNames = fieldNames
    defer { fieldNames = cursor.fieldNames }
    switch section {
    case .notes: return note(&cursor).map { .note($0) }
    case .cards: return card(&cursor).map { .card($0) }
    case .reviews: return review(&cursor).map { .review($0) }
    }
  }

  /// The note that is all of `bytes`, which the syntax pass has checked, or (`checking`) passed
  /// over unchecked, to be checked here as strictly as the pass would.
  static func note(_ bytes: UnsafeRawBufferPointer, checking: Bool = false) -> NoteJSON? {
    whole(bytes, checking: checking) { note(&$0) }
  }

  /// The card that is all of `bytes`, as ``note(_:checking:)``.
  static func card(_ bytes: UnsafeRawBufferPointer, checking: Bool = false) -> CardJSON? {
    whole(bytes, checking: checking) { card(&$0) }
  }

  /// The review that is all of `bytes`, as ``note(_:checking:)``.
  static func review(_ bytes: UnsafeRawBufferPointer, checking: Bool = false) -> ReviewJSON? {
    whole(bytes, checking: checking) { review(&$0) }
  }

  private static func note(_ cursor: inout Cursor) -> NoteJSON? {
    var id: Int64?
    var guid: String?
    var noteType: Reference?
    var fields: StringMembersJSON?
    var tags: [String]?
    var modified: Int64?
    var deck: Reference?
    let read = cursor.object(NoteKey.self) { cursor, key in
      switch key {
      case .id: return store(cursor.integer(), in: &id)
      case .guid: return store(cursor.string(), in: &guid)
      case .noteType: return store(cursor.reference(), in: &noteType)
      case .fields: return store(cursor.noteFields(), in: &fields)
      case .tags: return store(cursor.strings(), in: &tags)
      case .modified: return store(cursor.integer(), in: &modified)
      case .deck: return store(cursor.reference(), in: &deck)
      }
    }
    guard read, let noteType, let fields else { return nil }
    return NoteJSON(id: id, guid: guid, noteType: noteType, fields: fields, tags: tags, modified: modified, deck: deck)
  }

  private static func card(_ cursor: inout Cursor) -> CardJSON? {
    var id: Int64?
    var note: Int64?
    var template: Int?
    var deck: Reference?
    var modified: Int64?
    var scheduling: CardJSON.SchedulingJSON?
    let read = cursor.object(CardKey.self) { cursor, key in
      switch key {
      case .id: return store(cursor.integer(), in: &id)
      case .note: return store(cursor.integer(), in: &note)
      case .template: return store(cursor.int(), in: &template)
      case .deck: return store(cursor.reference(), in: &deck)
      case .modified: return store(cursor.integer(), in: &modified)
      case .scheduling: return store(cursor.scheduling(), in: &scheduling)
      }
    }
    guard read, let id, let note, let template, let deck else { return nil }
    return CardJSON(id: id, note: note, template: template, deck: deck, modified: modified, scheduling: scheduling)
  }

  private static func review(_ cursor: inout Cursor) -> ReviewJSON? {
    var id: Int64?
    var card: Int64?
    var button: Int?
    var interval: Int64?
    var lastInterval: Int64?
    var easeFactor: Int?
    var duration: Int?
    var kind: Int?
    let read = cursor.object(ReviewKey.self) { cursor, key in
      switch key {
      case .id: return store(cursor.integer(), in: &id)
      case .card: return store(cursor.integer(), in: &card)
      case .button: return store(cursor.int(), in: &button)
      case .interval: return store(cursor.integer(), in: &interval)
      case .lastInterval: return store(cursor.integer(), in: &lastInterval)
      case .easeFactor: return store(cursor.int(), in: &easeFactor)
      case .duration: return store(cursor.int(), in: &duration)
      case .kind: return store(cursor.int(), in: &kind)
      }
    }
    guard read, let id, let card, let button, let interval, let lastInterval, let easeFactor,
      let duration, let kind
    else { return nil }
    return ReviewJSON(
      id: id, card: card, button: button, interval: interval, lastInterval: lastInterval, easeFactor: easeFactor,
      duration: duration, kind: kind)
  }

  // MARK: - Keys

  private enum NoteKey: Int, ElementKey {
    case id, guid, noteType, fields, tags, modified, deck
    static let spellings = spell("id", "guid", "noteType", "fields", "tags", "modified", "deck")
  }

  private enum CardKey: Int, ElementKey {
    case id, note, template, deck, modified, scheduling
    static let spellings = spell("id", "note", "template", "deck", "modified", "scheduling")
  }

  private enum ReviewKey: Int, ElementKey {
    case id, card, button, interval, lastInterval, easeFactor, duration, kind
    static let spellings = spell(
      "id", "card", "button", "interval", "lastInterval", "easeFactor", "duration", "kind")
  }

  private enum SchedulingKey: Int, ElementKey {
    case type, queue, due, interval, easeFactor, reviews, lapses, remainingSteps, flags, originalDue, originalDeck,
      data
    static let spellings = spell(
      "type", "queue", "due", "interval", "easeFactor", "reviews", "lapses", "remainingSteps", "flags", "originalDue",
      "originalDeck", "data")
  }

  // MARK: - Reading

  /// A position in an element's bytes. Every read returns nil (or false) at anything it is
  /// not sure of, which leaves the whole element to `JSONDecoder` (so a read that fails need
  /// not restore the position), and never reads outside the bytes.
  private struct Cursor {
    let bytes: UnsafeRawBufferPointer
    private(set) var index: Int
    /// Whether the bytes are unchecked, so that what is accepted must be checked here as the
    /// syntax pass would check it.
    let checking: Bool
    /// The field names of the last note read (see ``JSONElementDecoder/element(_:in:at:fieldNames:)``).
    var fieldNames: [String] = []

    init(_ bytes: UnsafeRawBufferPointer, at index: Int, checking: Bool) {
      self.bytes = bytes
      self.index = index
      self.checking = checking
    }

    /// Whether only white space is left.
    var isAtEnd: Bool {
      mutating get {
        skipWhitespace()
        return index == bytes.count
      }
    }

    /// Reads the members of the object here: `body` reads each known key's value (leaving
    /// the cursor after it) and says whether it could. False when this is no object, a key has
    /// escapes or other than ASCII, occurs twice or is not one of the format's (which the
    /// reader then names, ``UnknownKeys``), or a value is not what `body` wants.
    mutating func object<Key: ElementKey>(_: Key.Type, _ body: (inout Cursor, Key) -> Bool) -> Bool {
      let spellings = Key.spellings
      var found: UInt64 = 0
      // Keys are looked for in their usual order first, the order deckport writes them in.
      var expected = 0
      return members { cursor, key in
        guard let ordinal = cursor.ordinal(of: key, in: spellings, trying: expected), let known = Key(rawValue: ordinal)
        else { return false }
        let bit: UInt64 = 1 << ordinal
        guard found & bit == 0 else { return false }
        found |= bit
        expected = ordinal + 1
        return body(&cursor, known)
      }
    }

    /// The place in `spellings` of the key whose content is `key`, trying place `first` first.
    private func ordinal(of key: Range<Int>, in spellings: [[UInt8]], trying first: Int) -> Int? {
      if first < spellings.count, spells(spellings[first], key) { return first }
      return spellings.indices.first { $0 != first && spells(spellings[$0], key) }
    }

    /// Whether the bytes in `range` are `spelling`.
    private func spells(_ spelling: [UInt8], _ range: Range<Int>) -> Bool {
      guard spelling.count == range.count else { return false }
      return spelling.withUnsafeBufferPointer { spelling in
        for offset in 0..<spelling.count where bytes[range.lowerBound &+ offset] != spelling[offset] { return false }
        return true
      }
    }

    /// Walks the members of the object here: `body` gets each key's content (plain ASCII, no
    /// escapes) with the cursor at its value, and reads the value. False at anything else.
    private mutating func members(_ body: (inout Cursor, Range<Int>) -> Bool) -> Bool {
      skipWhitespace()
      guard take(UInt8(ascii: "{")) else { return false }
      skipWhitespace()
      if take(UInt8(ascii: "}")) { return true }
      while true {
        guard let key = plainKey() else { return false }
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { return false }
        skipWhitespace()
        guard body(&self, key) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: ",")) {
          skipWhitespace()
          continue
        }
        return take(UInt8(ascii: "}"))
      }
    }

    /// The content of the key here when it is plain ASCII without escapes; the cursor moves
    /// past its closing quote.
    private mutating func plainKey() -> Range<Int>? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = index
      let stop = JSONBytes.plainRunEnd(bytes, from: start)
      guard stop < bytes.count, bytes[stop] == UInt8(ascii: "\"") else { return nil }
      index = stop + 1
      return start..<stop
    }

    /// A whole number written without fraction or exponent that fits in 64 bits.
    mutating func integer() -> Int64? {
      skipWhitespace()
      var position = index
      let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
      if negative { position += 1 }
      guard position < bytes.count, Self.isDigit(bytes[position]) else { return nil }
      // JSON allows no leading zero.
      if bytes[position] == UInt8(ascii: "0"), position + 1 < bytes.count, Self.isDigit(bytes[position + 1]) {
        return nil
      }
      // Accumulated negatively, so that Int64.min fits.
      var value: Int64 = 0
      while position < bytes.count, Self.isDigit(bytes[position]) {
        let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
        let (next, underflow) = shifted.subtractingReportingOverflow(Int64(bytes[position] &- 0x30))
        guard !overflow, !underflow else { return nil }
        value = next
        position += 1
      }
      if position < bytes.count, bytes[position] == UInt8(ascii: ".") || bytes[position] | 0x20 == UInt8(ascii: "e") {
        return nil
      }
      if !negative {
        guard value != .min else { return nil }
        value = -value
      }
      index = position
      return value
    }

    /// A whole number that fits in an `Int`.
    mutating func int() -> Int? {
      integer().flatMap { Int(exactly: $0) }
    }

    /// A string: made from its bytes when it has no escape, else decoded by the JSON core.
    mutating func string() -> String? {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
      var position = index + 1
      while true {
        position = JSONBytes.plainRunEnd(bytes, from: position)
        guard position < bytes.count else { return nil }
        let byte = bytes[position]
        if byte == UInt8(ascii: "\"") { break }
        if byte == UInt8(ascii: "\\") {
          // Escapes, surrogates paired; a lone surrogate is left to the decoder.
          guard let (value, end) = try? JSONParser.string(in: bytes, at: index) else { return nil }
          index = end
          return value
        }
        if checking {
          // A control character, or text other than ASCII that must be checked as UTF-8.
          let length = byte < 0x20 ? 0 : UTF8Sequence.length(in: bytes, at: position)
          guard length > 0 else { return nil }
          position += length
        } else {
          // Text other than ASCII, checked as UTF-8 by the syntax pass: its bytes are all 0x80 or above.
          position += 1
          while position < bytes.count, bytes[position] >= 0x80 { position += 1 }
        }
      }
      let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(index + 1)..<position]), as: UTF8.self)
      index = position + 1
      return value
    }

    /// A reference: an id (a whole number) or a name (a string), as ``Reference`` decodes one.
    mutating func reference() -> Reference? {
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { return string().map { .name($0) } }
      return integer().map { .id($0) }
    }

    /// An array of strings.
    mutating func strings() -> [String]? {
      skipWhitespace()
      guard take(UInt8(ascii: "[")) else { return nil }
      var strings: [String] = []
      skipWhitespace()
      if take(UInt8(ascii: "]")) { return strings }
      strings.reserveCapacity(8)
      while true {
        guard let string = string() else { return nil }
        strings.append(string)
        skipWhitespace()
        if take(UInt8(ascii: ",")) { continue }
        return take(UInt8(ascii: "]")) ? strings : nil
      }
    }

    /// A note's fields: an object of strings, names not repeated (compared as Swift compares
    /// strings, as a decoder's keys are).
    mutating func noteFields() -> StringMembersJSON? {
      var names: [String] = []
      var values: [String] = []
      names.reserveCapacity(fieldNames.count)
      values.reserveCapacity(fieldNames.count)
      skipWhitespace()
      guard take(UInt8(ascii: "{")) else { return nil }
      skipWhitespace()
      if take(UInt8(ascii: "}")) { return StringMembersJSON(names: names, values: values) }
      while true {
        guard let name = string() else { return nil }
        skipWhitespace()
        guard take(UInt8(ascii: ":")), let value = string() else { return nil }
        names.append(name)
        values.append(value)
        skipWhitespace()
        if take(UInt8(ascii: ",")) { continue }
        guard take(UInt8(ascii: "}")) else { return nil }
        // The names of the note before, most often: one array for them all.
        if names == fieldNames { return StringMembersJSON(names: fieldNames, values: values) }
        guard Self.allDistinct(names) else { return nil }
        fieldNames = names
        return StringMembersJSON(names: names, values: values)
      }
    }

    /// A card's scheduling: eleven whole numbers and `data`, a string.
    mutating func scheduling() -> CardJSON.SchedulingJSON? {
      var type: Int?
      var queue: Int?
      var due: Int64?
      var interval: Int?
      var easeFactor: Int?
      var reviews: Int?
      var lapses: Int?
      var remainingSteps: Int?
      var flags: Int?
      var originalDue: Int64?
      var originalDeck: Int64?
      var data: String?
      let read = object(SchedulingKey.self) { cursor, key in
        switch key {
        case .type: return store(cursor.int(), in: &type)
        case .queue: return store(cursor.int(), in: &queue)
        case .due: return store(cursor.integer(), in: &due)
        case .interval: return store(cursor.int(), in: &interval)
        case .easeFactor: return store(cursor.int(), in: &easeFactor)
        case .reviews: return store(cursor.int(), in: &reviews)
        case .lapses: return store(cursor.int(), in: &lapses)
        case .remainingSteps: return store(cursor.int(), in: &remainingSteps)
        case .flags: return store(cursor.int(), in: &flags)
        case .originalDue: return store(cursor.integer(), in: &originalDue)
        case .originalDeck: return store(cursor.integer(), in: &originalDeck)
        case .data: return store(cursor.string(), in: &data)
        }
      }
      guard read, let type, let queue, let due, let interval, let easeFactor, let reviews, let lapses,
        let remainingSteps, let flags, let originalDue, let originalDeck, let data
      else { return nil }
      return CardJSON.SchedulingJSON(
        type: type, queue: queue, due: due, interval: interval, easeFactor: easeFactor, reviews: reviews,
        lapses: lapses, remainingSteps: remainingSteps, flags: flags, originalDue: originalDue,
        originalDeck: originalDeck, data: data)
    }

    /// Whether no two of `names` are equal as Swift strings.
    private static func allDistinct(_ names: [String]) -> Bool {
      if names.count > 16 { return Set(names).count == names.count }
      for (offset, name) in names.enumerated() where names[(offset + 1)...].contains(name) { return false }
      return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    /// Skips JSON's white space (as ``JSONBytes/isWhitespace(_:)``, written out here: the JSON
    /// core's functions are not inlined across modules, and this runs for every byte of
    /// indentation).
    private mutating func skipWhitespace() {
      while index < bytes.count {
        let byte = bytes[index]
        if byte == 0x20 && index &+ 8 <= bytes.count {
          // Indentation: a run of spaces, up to eight at once (the bytes of the word that
          // differ from a space are its first nonzero bytes after XOR).
          let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
          index &+= (word ^ 0x2020_2020_2020_2020).trailingZeroBitCount &>> 3
          continue
        }
        guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
        index &+= 1
      }
    }

    /// Whether `byte` is an ASCII digit.
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
  }
}

/// The keys of one kind of object, numbered by their cases.
private protocol ElementKey: RawRepresentable<Int> {
  /// Each case's spelling as UTF-8, in case order.
  static var spellings: [[UInt8]] { get }
}

extension ElementKey {
  /// The spellings of `names` as UTF-8.
  static func spell(_ names: String...) -> [[UInt8]] { names.map { Array($0.utf8) } }
}

/// Stores `value` in `target` when there is one, and says whether there was.
private func store<Value>(_ value: Value?, in target: inout Value?) -> Bool {
  target = value
  return value != nil
}
