/// How one Core Data entity lies in its store: its table, entity number, and for each attribute
/// column the record key and type deckport reads and writes it as.
struct CoreDataEntityLayout {
  /// An attribute column.
  struct Column {
    /// The record key: the model's property name, or the column name without its `Z`, lowercased.
    var key: String
    /// The column, `Z` + the upper-cased property name.
    var column: String
    var type: CoreDataColumnType
    /// The model's attribute, when the store has a model cache naming it.
    var attribute: CoreDataModel.Attribute?
  }

  var name: String
  var entityNumber: Int64
  var superentityNumber: Int64
  var table: String
  var maximumPrimaryKey: Int64
  var columns: [Column]
  /// Relationship names (and their columns, when stored on this side), which deckport does not carry.
  var relationships: [String]
  /// Whether some entity inherits from this one (its rows share the table).
  var hasSubentities: Bool
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
  /// Values deckport takes as SQLite gives them (Decimal, Transformable, composite parts).
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
    case 1000, 1800: .data(external: external && code == 1000)
    case 1100: .uuid
    case 400: .raw
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
}
