/// Which Unicode scalars Rust's `regex` crate takes for the same letter under `(?i)`: those that
/// Unicode *simple* case folding (`CaseFolding.txt`, statuses C and S) joins, one scalar to one.
/// `ſ` is `s`, the Kelvin sign is `k`, `ς` is `σ`, `ẞ` is `ß`; but `ß` is not `ss` and `İ` is not
/// `i` (their foldings are of more than one scalar: full folding, which ICU uses and Rust does
/// not), nor is `ı` `i` (Turkish folding, which neither uses). ``FoldedLiteral`` is the same rule
/// for ASCII literals, on bytes.
///
/// The standard library has the case mappings, not the folding; the key is made from them, without
/// a table of our own.
package enum SimpleCaseFolding {
  /// A scalar that two scalars share exactly when simple case folding joins them: the folding for
  /// most, the lowercase letter where the folding is an uppercase one (Cherokee), the scalar itself
  /// when nothing folds to it. Only compare keys; do not show them.
  package static func key(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if scalar.isASCII {
      let value = scalar.value
      return value >= 0x41 && value <= 0x5A ? Unicode.Scalar(UInt8(value + 0x20)) : scalar
    }
    let properties = scalar.properties
    guard properties.changesWhenCaseMapped || properties.changesWhenCaseFolded else { return scalar }
    // The simple lowercase, where the full one is a single scalar (`İ`'s is two: not folded).
    let lower = single(properties.lowercaseMapping) ?? scalar
    let lowerProperties = lower.properties
    // A lowercase letter that still folds (`ſ`, `ς`, `ϐ`, U+0345, `ꭰ`) folds as its uppercase's
    // lowercase does; one whose uppercase is more than one scalar (`ß`, `ŉ`) folds only fully.
    guard lowerProperties.changesWhenCaseFolded, let upper = single(lowerProperties.uppercaseMapping),
      let folded = single(upper.properties.lowercaseMapping)
    else { return lower }
    return folded
  }

  /// The one scalar of `mapping`, or nil when it has more (or none).
  private static func single(_ mapping: String) -> Unicode.Scalar? {
    var scalars = mapping.unicodeScalars.makeIterator()
    guard let first = scalars.next(), scalars.next() == nil else { return nil }
    return first
  }
}
