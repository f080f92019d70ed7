/// How Anki compares deck names and tags: the `unicase` crate (its SQL collation and its
/// lookups), which folds by Unicode *full* case folding. `Straße` and `STRASSE` are one name, as
/// are `ﬁ` and `FI`, `σας` and `ΣΑΣ`, the Kelvin sign and `k`; `İ` and `i` are not. Checked with
/// the real backend (anki 26.9.3, `Tests/anki/test_values_anki_import_changes.py`): decks and
/// tags so spelled are matched as one. ``SimpleCaseFolding`` is the narrower rule of Anki's
/// regular expressions.
///
/// The standard library has the full case mappings, not the folding; uppercasing and then
/// lowercasing joins what full folding joins (`ß` becomes `SS`, then `ss`), but for two letters:
/// the capital sharp s `ẞ`, which folds to `ss` as `ß` does but lowercases to `ß`, and the dotless
/// `ı`, which folds to itself but uppercases to `I`. Checked with the backend: `Straße`, `STRAẞE`
/// and `STRASSE` are one deck and one tag; `Tip` and `Tıp` are two.
package enum FullCaseFolding {
  /// A key two names share exactly when Anki matches them as one: NFC, then folded. Only
  /// compare keys; do not show them.
  package static func key(_ text: String) -> String {
    let composed = text.canonicallyComposed
    if composed.utf8.allSatisfy({ $0 < 0x80 }) { return composed.lowercased() }
    // ı is kept out of the mappings; ẞ goes through ß.
    return composed.split(separator: "ı", omittingEmptySubsequences: false).map {
      $0.replacingOccurrences(of: "ẞ", with: "ß").uppercased().lowercased()
    }.joined(separator: "ı")
  }
}
