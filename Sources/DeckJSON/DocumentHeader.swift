import DeckCore

/// The `format` and `version` keys that open a deckport JSON document (a deck document, a
/// json-dir index), read before the rest so that another format or version is refused first.
struct DocumentHeader: Decodable {
  /// The format name, if the document has one.
  var format: String?
  /// The format version, if the document has one.
  var version: Int?

  /// Throws unless the header names `expectedFormat` and `expectedVersion`.
  ///
  /// - Parameters:
  ///   - wrongFormat: the message for a document of another format or none, given the format
  ///     found.
  ///   - formatTitle: how the message for another version names the format
  ///     ("json-dir" in "json-dir version 3 is not supported").
  /// - Throws: ``DeckError/Kind/wrongFormat`` at the key `format`, or
  ///   ``DeckError/Kind/unsupportedVersion`` at the key `version`, of `location`.
  func check(
    format expectedFormat: String, version expectedVersion: Int, at location: SourceLocation,
    wrongFormat: (String?) -> String, formatTitle: String
  ) throws {
    guard format == expectedFormat else {
      throw DeckError(.wrongFormat, at: location.atJSONPath("format"), wrongFormat(format))
    }
    guard version == expectedVersion else {
      throw DeckError(
        .unsupportedVersion, at: location.atJSONPath("version"),
        "\(formatTitle) version \(version.map(String.init) ?? "(missing)") is not supported; this deckport reads version \(expectedVersion)"
      )
    }
  }
}
