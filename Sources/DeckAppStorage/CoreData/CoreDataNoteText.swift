/// What a deck's note text becomes in a Core Data entity (``NoteTextTyping``): each attribute's
/// text read as its type (a Decimal's as the number it shows), a composite's and a
/// relationship's as their JSON. Empty text is NULL, except for a required string attribute,
/// which keeps the empty string.
enum CoreDataNoteText {
  /// The target of each of `entity`'s properties.
  static func targets(for entity: CoreDataEntityLayout) -> [String: NoteTextTyping.Target] {
    var targets: [String: NoteTextTyping.Target] = [:]
    for member in entity.members where targets[member.key] == nil {
      switch member {
      case .attribute(let column):
        let required = column.attribute.map { !$0.isOptional } ?? false
        targets[column.key] = .init(type: column.type.valueType, keepsEmptyText: column.type == .string && required)
      case .composite(let composite):
        targets[composite.key] = .init(type: .object, keepsEmptyText: false)
      case .relationship(let relationship):
        targets[relationship.key] = .init(type: relationship.model.isToMany ? .array : .object, keepsEmptyText: false)
      }
    }
    return targets
  }
}
