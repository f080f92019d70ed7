/// Sizes in bytes written for people: `512 bytes`, `40 KB`, `1.5 MB`, `16 GB` (decimal units,
/// the same in every locale).
package enum ByteCount {
  /// `bytes` in the largest decimal unit that keeps it at 1 or more, with one decimal below 10.
  package static func text(_ bytes: Int64) -> String {
    let units = ["KB", "MB", "GB", "TB", "PB"]
    guard bytes >= 1000 else { return "\(CountedNoun.phrase(bytes, "byte"))" }
    var value = Double(bytes)
    var unit = -1
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    let rounded = value < 10 ? (value * 10).rounded() / 10 : value.rounded()
    let number = rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    return "\(number) \(units[unit])"
  }
}
