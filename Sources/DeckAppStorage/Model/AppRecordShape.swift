import DeckCore

/// The shape of a set of records: every key that occurs, in first-seen order, with the type of
/// its values. deckport's SQLite schema stores it (`deckport_fields`) so the records can be
/// written back exactly; writers of typed storage (SQLite, Core Data) take their columns from it.
public struct AppRecordShape: Sendable, Hashable {
  /// One key of the shape.
  public struct Field: Sendable, Hashable, ExactlyKeyed {
    /// The key, exactly as the records spell it.
    public var key: String
    /// The type of its non-null values (``AppValueType/any`` when they differ or all are null).
    public var type: AppValueType

    /// Creates a field.
    public init(key: String, type: AppValueType) {
      self.key = key
      self.type = type
    }

    /// Whether both keys hold the same Unicode scalars (not merely canonically equivalent ones)
    /// and both types are the same.
    public static func == (lhs: Field, rhs: Field) -> Bool { lhs.key.isExactly(rhs.key) && lhs.type == rhs.type }

    /// Feeds the key's scalars and the type.
    public func hash(into hasher: inout Hasher) {
      key.hashExactly(into: &hasher)
      hasher.combine(type)
    }
  }

  /// The keys in first-seen order.
  public var fields: [Field] {
    didSet { positions = ExactKeyPositions(fields) }
  }

  /// Where each key is in `fields`, when they are many.
  private var positions: ExactKeyPositions?

  /// Creates a shape from fields in order.
  public init(fields: [Field]) {
    self.fields = fields
    positions = ExactKeyPositions(fields)
  }

  /// Whether both have the same keys (exactly) with the same types, in the same order.
  public static func == (lhs: AppRecordShape, rhs: AppRecordShape) -> Bool { lhs.fields == rhs.fields }

  /// Feeds the keys and types in order.
  public func hash(into hasher: inout Hasher) { hasher.combine(fields) }

  /// The keys in order.
  public var keys: [String] { fields.map(\.key) }

  /// The field for `key`, if the shape has it.
  public func field(_ key: String) -> Field? {
    index(of: key).map { fields[$0] }
  }

  /// The position of `key` among the fields, compared code point by code point.
  public func index(of key: String) -> Int? {
    fields.firstIndex(ofKey: key, positions: positions)
  }

  /// The shape of `records`: declared fields first (in their order, with their types unless the
  /// values disagree), then every other key in the order it first occurs.
  ///
  /// A field's type is the type all its non-null values share; values of different types make
  /// it ``AppValueType/any``. A declared field whose values are all null keeps its declared type.
  public static func inferred(from records: [AppRecord], declared: AppRecordShape? = nil) -> AppRecordShape {
    var order: [String] = declared?.keys ?? []
    var seen: [ExactKey: AppValueType?] = [:]
    for field in declared?.fields ?? [] { seen[ExactKey(field.key)] = .some(nil) }
    for record in records {
      for field in record.fields {
        let key = ExactKey(field.key)
        if seen[key] == nil {
          order.append(field.key)
          seen[key] = .some(nil)
        }
        guard !field.value.isNull, let current = seen[key] else { continue }
        seen[key] = .some(current.map { $0.merged(with: field.value.type) } ?? field.value.type)
      }
    }
    return AppRecordShape(
      fields: order.map { key in
        let observed = seen[ExactKey(key)] ?? nil
        return Field(key: key, type: observed ?? declared?.field(key)?.type ?? .any)
      })
  }
}
