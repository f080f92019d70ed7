import DeckCore

/// What a deck's note text becomes in a Core Data entity (``NoteTextTyping``): each attribute's
/// text read as its type (a Decimal's as the number it shows), a composite's and a
/// relationship's as their JSON. Empty text is NULL, except for a required string attribute,
/// which keeps the empty string, and any other required attribute, which keeps what the row
/// holds.
enum CoreDataNoteText {
  /// The target of each of `entity`'s properties.
  static func targets(for entity: CoreDataEntityLayout) -> [ExactKey: NoteTextTyping.Target] {
    var targets: [ExactKey: NoteTextTyping.Target] = [:]
    for member in entity.members where targets[ExactKey(member.key)] == nil {
      switch member {
      case .attribute(let column):
        let required = column.attribute.map { !$0.isOptional } ?? false
        targets[ExactKey(column.key)] = .init(
          type: column.type.valueType, keepsEmptyText: column.type == .string && required)
      case .composite(let composite):
        targets[ExactKey(composite.key)] = .init(type: .object, keepsEmptyText: false, emptyIsAbsent: true)
      case .relationship(let relationship):
        targets[ExactKey(relationship.key)] = .init(
          type: relationship.model.isToMany ? .array : .object, keepsEmptyText: false, emptyIsAbsent: true)
      }
    }
    return targets
  }

  /// The required attributes other than strings: emptied in a note, they keep what the row
  /// holds (the store cannot hold them empty, and a new value each time would change the row on
  /// every write); a new record gets a derived UUID or the model's default.
  static func keptWhenEmpty(in entity: CoreDataEntityLayout) -> Set<String> {
    Set(
      entity.columns.compactMap { column in
        guard let attribute = column.attribute, !attribute.isOptional, column.type != .string else { return nil }
        return column.key
      })
  }

  /// The to-many relationships that are not ordered: the order their references are listed in
  /// means nothing (the store keeps none).
  static func unorderedKeys(in entity: CoreDataEntityLayout) -> Set<String> {
    Set(entity.relationships.filter { $0.model.isToMany && !$0.model.isOrdered }.map(\.key))
  }
}
