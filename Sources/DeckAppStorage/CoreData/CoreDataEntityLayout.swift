/// How one Core Data entity lies in its store: its table, entity number, the hierarchy it
/// belongs to, and each of its properties (inherited ones included) with the columns that hold
/// them.
struct CoreDataEntityLayout {
  /// An attribute column, or a composite element's column.
  struct Column {
    /// The record key: the model's property (or element) name, or, in a store without a model
    /// cache, the column name without its `Z`, lower-cased.
    var key: String
    /// The column.
    var column: String
    var type: CoreDataColumnType
    /// The model's attribute, when the store has a model cache naming it.
    var attribute: CoreDataModel.Attribute?
  }

  /// A composite attribute: an object whose elements each have a column.
  struct Composite {
    var key: String
    var isOptional: Bool
    var elements: [Column]
  }

  /// A relationship and where the store keeps it.
  struct Relationship {
    var key: String
    var model: CoreDataModel.Relationship
    /// The destination entity's number and table.
    var destinationNumber: Int64
    var destinationTable: String
    var storage: CoreDataRelationshipStorage
  }

  /// One property of the entity, in the model's order.
  enum Member {
    case attribute(Column)
    case composite(Composite)
    case relationship(Relationship)

    var key: String {
      switch self {
      case .attribute(let column): column.key
      case .composite(let composite): composite.key
      case .relationship(let relationship): relationship.key
      }
    }
  }

  var name: String
  var entityNumber: Int64
  var superentityNumber: Int64
  /// The root entity of the hierarchy, whose table this is and whose `Z_MAX` hands out keys.
  var rootName: String
  var rootNumber: Int64
  var table: String
  /// This entity's own `Z_PRIMARYKEY.Z_MAX` (0 for a subentity: the root's counts).
  var maximumPrimaryKey: Int64
  var isAbstract: Bool
  var members: [Member]
  /// The table's columns that belong to other entities of the hierarchy (siblings and
  /// subentities), which a row of this entity leaves NULL.
  var foreignColumns: [String]
  /// The table's attribute columns the model gives no property (read under their column name
  /// only in a store without a model cache).
  var unclaimedColumns: [String]
  /// Whether some entity inherits from this one (its rows share the table).
  var hasSubentities: Bool

  /// The attribute and composite-element columns, in member order.
  var columns: [Column] {
    members.flatMap { member -> [Column] in
      switch member {
      case .attribute(let column): [column]
      case .composite(let composite): composite.elements
      case .relationship: []
      }
    }
  }

  /// The keys a write does not set directly: relationships (linked separately) and derived
  /// attributes (computed by the store's triggers).
  var keysNotWrittenAsValues: Set<String> {
    derivedKeys.union(relationships.map(\.key))
  }

  /// The derived attributes' keys (`NSDerivedAttributeDescription`): the store's triggers compute
  /// their values.
  var derivedKeys: Set<String> {
    Set(columns.compactMap { $0.attribute?.isDerived == true ? $0.key : nil })
  }

  /// The keys of the attributes and composites (every member but the relationships).
  var attributeKeys: Set<String> {
    Set(
      members.compactMap { member -> String? in
        if case .relationship = member { return nil }
        return member.key
      })
  }

  /// The attributes of the entity's first uniqueness constraint (SwiftData's
  /// `@Attribute(.unique)`, an inherited one included) that is made of attributes alone, or nil.
  /// Core Data and SwiftData save a second object with the same values as the one they hold.
  func uniqueAttributes(in model: CoreDataModel?) -> [String]? {
    let attributes = attributeKeys
    return model?.uniquenessConstraints(of: name).first { !$0.isEmpty && $0.allSatisfy(attributes.contains) }
  }

  /// The relationships, in member order.
  var relationships: [Relationship] {
    members.compactMap { if case .relationship(let relationship) = $0 { relationship } else { nil } }
  }

  /// `record` with each key that names a column of a store without a model cache only when case
  /// is ignored spelled as the column's key. Such a store's keys are its column names in lower
  /// case (`createdat` for `ZCREATEDAT`), where a profile or the app's own code says `createdAt`;
  /// keys of the model's properties are exact and never respelled.
  func spellingKeys(of record: AppRecord) -> AppRecord {
    let exact = Set(members.map(\.key))
    let withoutModel = Dictionary(
      columns.filter { $0.attribute == nil }.map { ($0.key.lowercased(), $0.key) },
      uniquingKeysWith: { first, _ in first })
    guard !withoutModel.isEmpty else { return record }
    let present = Set(record.map(\.key))
    return AppRecord(
      fields: record.map { field in
        guard !exact.contains(field.key), let spelled = withoutModel[field.key.lowercased()], !present.contains(spelled)
        else { return field }
        return AppRecord.Field(key: spelled, value: field.value)
      })
  }
}

/// Where a store keeps a relationship.
enum CoreDataRelationshipStorage {
  /// A to-one: the destination's `Z_PK` in a column of the row, with the destination's entity
  /// number in a second column when the destination has subentities.
  case foreignKey(column: String, entityColumn: String?)
  /// A to-many kept on the other side: rows of the destination's table whose `column` holds this
  /// row's key (the inverse to-one's column, or `Z<n><NAME>` for a to-many without inverse);
  /// `entityColumn` holds this row's entity number beside it when this entity has subentities,
  /// and `inverseRequired` says the inverse to-one may not be empty (a target cannot leave).
  case destinationColumn(column: String, orderColumn: String?, entityColumn: String?, inverseRequired: Bool)
  /// A many-to-many: rows of a join table pairing this row's key (`ownColumn`) with the
  /// destination's (`destinationColumn`).
  case joinTable(table: String, ownColumn: String, destinationColumn: String, orderColumn: String?)
  /// The store has no column or table the rule predicts; the reason says what was looked for.
  case missing(String)
}

/// How deckport reads and writes one Core Data attribute column.
enum CoreDataColumnType: Equatable {
  case integer
  case bool
  case double
  case string
  case date
  case uuid
  /// Bytes; `external` when the attribute allows external storage (a tagged blob).
  case data(external: Bool)
  /// Values deckport takes as SQLite gives them (Decimal, object ids, unknown types).
  case raw

  /// The app value type of the column's values.
  var valueType: AppValueType {
    switch self {
    case .integer: .integer
    case .bool: .bool
    case .double: .double
    case .string: .string
    case .date: .date
    case .uuid: .uuid
    case .data: .data
    case .raw: .any
    }
  }

  /// The type for an attribute code of Core Data's `NSAttributeType`.
  static func from(attributeType code: Int64, external: Bool) -> CoreDataColumnType? {
    switch code {
    case 100, 200, 300: .integer
    case 500, 600: .double
    case 700, 1200: .string
    case 800: .bool
    case 900: .date
    case 1000, 1800: .data(external: external)
    case 1100: .uuid
    case 400, 2000: .raw
    default: nil
    }
  }

  /// The type for a declared SQL column type, when no model cache says better.
  static func from(declaredType: String) -> CoreDataColumnType {
    let upper = declaredType.uppercased()
    if upper.contains("TIMESTAMP") { return .date }
    if upper.contains("INT") { return .integer }
    if upper.contains("FLOAT") || upper.contains("REAL") || upper.contains("DOUB") { return .double }
    if upper.contains("CHAR") || upper.contains("TEXT") || upper.contains("CLOB") { return .string }
    if upper.contains("BLOB") { return .data(external: false) }
    return .raw
  }

  /// The range an integer attribute of Core Data type `code` holds (Integer 16, 32, 64).
  static func integerRange(attributeType code: Int64) -> ClosedRange<Int64>? {
    switch code {
    case 100: Int64(Int16.min)...Int64(Int16.max)
    case 200: Int64(Int32.min)...Int64(Int32.max)
    default: nil
    }
  }
}
