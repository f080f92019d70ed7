/// How Anki compares deck names and tags: the `unicase` crate (its SQL collation and its
/// lookups), which folds by Unicode *full* case folding. `Straße` and `STRASSE` are one name, as
/// are `ﬁ` and `FI`, `σας` and `ΣΑΣ`, the Kelvin sign and `k`; `İ` and `i` are not. Checked with
/// the real backend (anki 26.9.3, `Tests/anki/test_values_anki_import_changes.py`): decks and
/// tags so spelled are matched as one. ``SimpleCaseFolding`` is the narrower rule of Anki's
/// regular expressions.
///
/// The standard library has the full case mappings, not the folding; uppercasing and then
/// lowercasing joins what full folding joins (`ß` becomes `SS`, then `ss`).
package enum FullCaseFolding {
  /// A key two names share exactly when Anki matches them as one: NFC, then folded. Only
  /// compare keys; do not show them.
  package static func key(_ text: String) -> String {
    let composed = text.canonicallyComposed
    if composed.utf8.allSatisfy({ $0 < 0x80 }) { return composed.lowercased() }
    return composed.uppercased().lowercased()
  }
}
