import Foundation

extension AppRecordProfile {
  /// The built-in profile the records fit (see ``matches(_:)``). Nil for an empty set or another
  /// shape.
  package static func detect(in records: [AppRecord]) -> AppRecordProfile? {
    guard !records.isEmpty else { return nil }
    return all.first { $0.matches(records) }
  }

  /// Whether the records are this profile's: each one `fits(_:)`, and when every key of the
  /// profile is optional (Idealic's `title` and `text`), the records together use every key, so a
  /// set of records with a lone `text` key stays generic.
  package func matches(_ records: [AppRecord]) -> Bool {
    guard records.allSatisfy(fits) else { return false }
    guard !fields.contains(where: \.required) else { return true }
    let used = Set(records.flatMap { $0.keys.map { $0.lowercased() } })
    return keys.allSatisfy { used.contains($0.lowercased()) }
  }

  /// Whether one record fits this profile: every key is a key of the profile (compared without
  /// case, since Core Data columns lose it, and each at most once), and every required key is
  /// present except those writing supplies (``Field/mayBeMissing``: a Flashzilla card without an
  /// `id` still fits).
  package func fits(_ record: AppRecord) -> Bool {
    let known = Set(keys.map { $0.lowercased() })
    let present = Set(record.keys.map { $0.lowercased() })
    return present.count == record.count && present.isSubset(of: known)
      && fields.allSatisfy { field in !field.required || field.mayBeMissing || present.contains(field.key.lowercased())
      }
  }

  /// `records` with this profile applied: keys spelled as the profile spells them (a Core Data
  /// column `ZCREATEDAT` read as `createdat` becomes `createdAt`), and values converted to the
  /// profile's types where that loses nothing: a UUID string in canonical form or 16 bytes to a
  /// UUID, canonical base64 to data, a number or ISO 8601 string to a date in the records' JSON
  /// date encoding (`dates`, or guessed from the values' range). Values that do not convert
  /// exactly stay as they are.
  package func apply(to records: AppRecords, dates forced: JSONDateEncoding? = nil) -> AppRecords {
    var dates = forced ?? records.jsonDates
    let dateKeys = fields.filter { $0.type == .date }.map(\.key)
    let rawDates = records.records.flatMap { record in
      record.fields.filter { field in dateKeys.contains { $0.lowercased() == field.key.lowercased() } }
        .map(\.value).filter { if case .date = $0 { false } else { true } }
    }
    if forced == nil, !rawDates.isEmpty, let guessed = JSONDateEncoding.guess(from: rawDates) { dates = guessed }
    let typed = records.records.map { record in
      AppRecord(
        fields: record.fields.map { field in
          guard let profileField = self.field(matching: field.key) else { return field }
          return AppRecord.Field(
            key: profileField.key, value: Self.convert(field.value, to: profileField.type, dates: dates))
        })
    }
    var result = AppRecords(
      name: records.name, records: typed, declared: nil, profile: self, jsonDates: dates,
      primaryKeys: records.primaryKeys)
    result.shape = AppRecordShape.inferred(from: typed, declared: declaredShape(after: records.shape))
    return result
  }

  /// The profile field for `key`, compared without case.
  func field(matching key: String) -> Field? {
    fields.first { $0.key == key } ?? fields.first { $0.key.lowercased() == key.lowercased() }
  }

  /// The storage's declared shape with keys respelled as the profile spells them.
  private func declaredShape(after shape: AppRecordShape) -> AppRecordShape {
    AppRecordShape(
      fields: shape.fields.map { field in
        guard let profileField = self.field(matching: field.key) else { return field }
        return AppRecordShape.Field(key: profileField.key, type: field.type == .any ? profileField.type : field.type)
      })
  }

  /// `value` as `type` when the conversion is exact, else `value` unchanged.
  static func convert(_ value: AppValue, to type: AppValueType, dates: JSONDateEncoding) -> AppValue {
    switch (type, value) {
    case (.uuid, .string(let text)):
      if let uuid = UUID(uuidString: text), uuid.uuidString == text { return .uuid(uuid) }
    case (.uuid, .data(let bytes)):
      if bytes.count == 16 { return .uuid(UUID(bytes: bytes)) }
    case (.data, .string(let text)):
      if let data = Data(base64Encoded: text), data.base64EncodedString() == text { return .data(data) }
    case (.date, .integer), (.date, .double), (.date, .string):
      if let date = dates.decode(value) { return .date(date) }
    default: break
    }
    return value
  }
}
