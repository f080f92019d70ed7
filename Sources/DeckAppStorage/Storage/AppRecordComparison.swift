import DeckCore

/// Compares the records a writer meant to store with the records read back from what it wrote.
enum AppRecordComparison {
  /// Nil when `actual` equals `expected` record for record, key for key, value for value (and
  /// in order); else a sentence naming the first difference.
  static func firstDifference(expected: [AppRecord], actual: [AppRecord], labels: (Int) -> String) -> String? {
    guard expected.count == actual.count else {
      return "\(expected.count) records were written but \(actual.count) were read back"
    }
    for (index, (want, got)) in zip(expected, actual).enumerated() where want != got {
      let label = labels(index)
      if want.keys != got.keys {
        return
          "\(label): the keys written were \(want.keys.joined(separator: ", ")), the keys read back are \(got.keys.joined(separator: ", "))"
      }
      for field in want.fields where got[field.key] != field.value {
        return "\(label), key '\(field.key)': wrote \(field.value), read back \(got[field.key] ?? .null)"
      }
      return "\(label) differs"
    }
    return nil
  }
}
