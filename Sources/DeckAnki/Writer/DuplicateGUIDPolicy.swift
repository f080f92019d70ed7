/// What the Anki package writer does with notes that share a GUID.
///
/// Anki matches notes by GUID when it imports a package: both notes of one GUID arrive in an
/// empty collection, but importing the package again updates only one of them, with the
/// changes of both (observed with anki 26.9.3). Careless deck generators write such packages;
/// this policy decides how they are written:
///
/// ```swift
/// var options = ConversionOptions(to: .apkg)
/// options.formats[DuplicateGUIDPolicy.self] = .newGUID
/// ```
public enum DuplicateGUIDPolicy: String, Sendable, CaseIterable {
  /// Refuse the collection with an error naming both notes (the default).
  case fail
  /// Write the first note (in note order) with each GUID; leave out every later one, with its
  /// cards and their reviews, each reported by note id in a `guid-duplicate` warning.
  case keepFirst = "keep-first"
  /// Keep every note: a later note gets a fresh GUID derived from its old GUID and its note id
  /// (the same input always gives the same GUID), each reported in a `guid-duplicate` warning.
  case newGUID = "new-guid"
}
