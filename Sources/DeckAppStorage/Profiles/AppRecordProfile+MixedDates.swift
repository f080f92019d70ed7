import DeckCore

extension AppRecordProfile {
  /// A warning when the JSON-stored dates under this profile's date keys look written in more
  /// than one encoding (`1700000000`, seconds since 1970, beside `720000000`, seconds since
  /// 2001): no one encoding fits them all, so they were read in `chosen`, and some dates are
  /// then years off. Names the first value of each encoding and its record, and what to pass.
  /// Nil when the values agree (or none is a raw JSON date).
  func mixedDateEncodingWarning(in records: AppRecords, chosen: JSONDateEncoding, at location: SourceLocation)
    -> Diagnostic?
  {
    records.mixedDateEncodingWarning(
      keys: Set(fields.filter { $0.type == .date }.map { $0.key.lowercased() }), chosen: chosen, at: location)
  }
}

extension AppRecords {
  /// A warning when the JSON-stored dates under `keys` (lower-cased) look written in more than
  /// one encoding, read in `chosen` (``AppRecordProfile/mixedDateEncodingWarning(in:chosen:at:)``);
  /// nil when they agree, or none is a raw JSON date.
  func mixedDateEncodingWarning(keys dateKeys: Set<String>, chosen: JSONDateEncoding, at location: SourceLocation)
    -> Diagnostic?
  {
    guard !dateKeys.isEmpty else { return nil }
    var firstOfEach: [(encoding: JSONDateEncoding, key: String, record: Int, value: AppValue)] = []
    for (index, record) in records.enumerated() {
      for field in record where dateKeys.contains(field.key.lowercased()) {
        guard let encoding = JSONDateEncoding.guess(forOne: field.value),
          !firstOfEach.contains(where: { $0.encoding == encoding })
        else { continue }
        firstOfEach.append((encoding, field.key, index, field.value))
      }
    }
    guard firstOfEach.count > 1 else { return nil }
    let examples = firstOfEach.map { example in
      "\(example.value.noteText ?? example.value.description) (\(label(ofRecord: example.record)), \(example.key)) looks like \(example.encoding.rawValue)"
    }
    return Diagnostic(
      .datesMixed, at: location,
      "the dates do not share one encoding: \(examples.joined(separator: "; ")); all are read as \(chosen.rawValue), so some are far off; name the encoding with \(setting: .jsonDates)"
    )
  }
}
