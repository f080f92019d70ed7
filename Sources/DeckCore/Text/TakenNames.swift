/// Names made unique as Anki makes them when it opens a schema-11 collection: each name is
/// taken in turn, and one that matches a name taken before (ignoring case, as Anki's `unicase`
/// compares: ``FullCaseFolding``) gets a suffix added until it matches none (`Twin` becomes
/// `Twin_`, a field `Dup` after `dup` becomes `Dup+`).
package struct TakenNames {
  private var keys: Set<String> = []

  /// No name taken yet.
  package init() {}

  /// `name`, with `suffix` added as often as a name taken before matches it; the result is then
  /// taken.
  package mutating func take(_ name: String, suffix: String) -> String {
    var unique = name
    while !keys.insert(FullCaseFolding.key(unique)).inserted { unique += suffix }
    return unique
  }
}
