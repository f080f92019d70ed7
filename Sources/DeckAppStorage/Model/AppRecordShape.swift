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
  }

  /// The keys in first-seen order.
  public var fields: [Field]

  /// Creates a shape from fields in order.
  public init(fields: [Field]) {
    self.fields = fields
  }

  /// The keys in order.
  public var keys: [String] { fields.map(\.key) }

  /// The field for `key`, if the shape has it.
  public func field(_ key: String) -> Field? {
    fields.first(withKey: key)
  }

  /// The shape of `records`: declared fields first (in their order, with their types unless the
  /// values disagree), then every other key in the order it first occurs.
  ///
  /// A field's type is the type all its non-null values share; values of different types make
  /// it ``AppValueType/any``. A declared field whose values are all null keeps its declared type.
  public static func inferred(from records: [AppRecord], declared: AppRecordShape? = nil) -> AppRecordShape {
    var order: [String] = declared?.keys ?? []
    var seen: [String: AppValueType?] = [:]
    for field in declared?.fields ?? [] { seen[field.key] = .some(nil) }
    for record in records {
      for field in record.fields {
        if seen[field.key] == nil {
          order.append(field.key)
          seen[field.key] = .some(nil)
        }
        guard !field.value.isNull, let current = seen[field.key] else { continue }
        seen[field.key] = .some(current.map { $0.merged(with: field.value.type) } ?? field.value.type)
      }
    }
    return AppRecordShape(
      fields: order.map { key in
        let observed = seen[key] ?? nil
        return Field(key: key, type: observed ?? declared?.field(key)?.type ?? .any)
      })
  }
}
