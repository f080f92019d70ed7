import DeckCore

/// A card's fields by name, as Anki's renderer finds them: the note's own, then the special
/// fields Anki adds where no field of the note type has the name (`Tags`, `Type`, `Deck`,
/// `Subdeck`, `CardFlag`, `Card`, `CardID`, and `cN`, "1", for the card's cloze number `N`).
/// Special values are made when asked for, so a card whose template names none costs nothing
/// for them.
struct CardFields {
  /// The position of each field name of the note type (the first field of a name, names
  /// compared byte for byte as Anki compares them).
  let positions: FieldPositions
  let note: Note
  let card: Card
  /// The note type's name (`{{Type}}`) and the template's (`{{Card}}`).
  let noteTypeName: String
  let templateName: String
  /// The card's deck, or its home deck while a filtered deck borrows it: its name and its last
  /// component as Anki stores them (``Deck/storedLevels(of:)``; `{{Deck}}`, `{{Subdeck}}`); nil
  /// when the collection lacks it.
  let deck: (name: String, last: String)?

  /// The names of the special fields, in the order Anki adds them.
  static let specialNames: [Substring] = ["Tags", "Type", "Subdeck", "Deck", "CardFlag", "Card", "CardID"]

  /// The card's cloze number, its ordinal + 1 (an ordinal a file holds may be any integer: the
  /// largest wraps rather than traps, and matches no cloze).
  var clozeNumber: Int { card.templateOrdinal.addingReportingOverflow(1).partialValue }

  /// The value of the field named `key`, or nil when the card has no field of that name.
  subscript(key: Substring) -> String? {
    if let position = positions[key] { return position < note.fields.count ? note.fields[position] : nil }
    // Swift's `==` matches these names exactly: no other text is canonically equivalent to
    // them (none holds `K`, which U+212A KELVIN SIGN is equivalent to).
    switch key {
    case "Tags": return note.tags.joined(separator: " ")
    case "Type": return noteTypeName
    case "Subdeck": return deck?.last ?? "(Deck)"
    case "Deck": return deck?.name ?? "(Deck)"
    case "CardFlag": return "flag\(card.scheduling.flags)"
    case "Card": return templateName
    case "CardID": return String(card.id)
    default: return isOwnClozeNumber(key) ? "1" : nil
    }
  }

  /// Whether the field named `key` exists and is not empty (``AnkiTemplate/isEmptyField(_:)``).
  func isNonEmpty(_ key: Substring) -> Bool {
    self[key].map { !AnkiTemplate.isEmptyField($0) } ?? false
  }

  /// Every value, the note's fields and the special ones (for the cloze numbers they hold).
  var allValues: [String] {
    var values = positions.sortedPositions.compactMap { $0 < note.fields.count ? note.fields[$0] : nil }
    let clozeKey = "c\(clozeNumber)"[...]
    for name in Self.specialNames + [clozeKey] where positions[name] == nil {
      if let value = self[name] { values.append(value) }
    }
    return values
  }

  /// Whether `key` is `c` and the card's cloze number (its ordinal + 1), written plainly.
  private func isOwnClozeNumber(_ key: Substring) -> Bool {
    key.utf8.elementsEqual("c\(clozeNumber)".utf8)
  }
}
