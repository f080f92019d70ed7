import DeckAnki
import DeckCore
import DeckJSON

/// Writes the shared model in an output format; the one place that maps formats to writers.
enum DeckWriter {
  /// Writes `collection` as `format` to `path`; `reportingAs` is the path warnings name (the
  /// final destination, not the temporary file).
  static func write(
    _ collection: DeckCollection, format: OutputFormat, to path: String, reportingAs destination: String
  ) throws -> [Diagnostic] {
    switch format {
    case .apkg, .apkgModern, .colpkg, .colpkgModern:
      let options = AnkiPackageWriter.Options(
        generation: format == .apkg || format == .colpkg ? .legacy2 : .latest,
        kind: format == .colpkg || format == .colpkgModern ? .colpkg : .apkg)
      return try AnkiPackageWriter(options: options).write(collection, to: path, reportingAs: destination)
    case .json:
      try DeckJSONWriter().write(collection, to: path, reportingAs: destination)
      return []
    }
  }
}
