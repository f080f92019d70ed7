import DeckCore
import JSONCore

extension DeckOptions {
  /// The option group's settings as Anki's schema-11 `dconf` entry, whatever the collection they
  /// came from: a schema-18 group converted as the package writer converts it, a schema-11 group
  /// with the keys Anki requires filled in with Anki's defaults. Nil when the stored settings
  /// cannot be read (not a JSON object, not a valid protobuf message).
  package var schema11Entry: JSONValue? {
    try? DeckOptionsConversion.entry(for: self, location: SourceLocation(file: "")).json
  }
}
