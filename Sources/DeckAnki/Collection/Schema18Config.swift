import DeckCore
import DeckIO
import Foundation

/// The protobuf `config` blobs of a schema-15-to-18 collection (`notetypes`, `fields`,
/// `templates`, `decks`). Field numbers are those of Anki's `notetypes.proto` and `decks.proto`;
/// proto3 leaves fields at their default value out, so every value starts at its default.
enum Schema18Config {
  /// The parts of `Notetype.Config` the model keeps.
  struct NoteTypeConfig {
    var kind: NoteType.Kind = .standard
    var sortFieldIndex = 0
    var css = ""
    var latexPreamble = ""
    var latexPostamble = ""
    var latexSVG = false
    var originalStockKind = 0
    var originalID: Int64?
    /// `crowdanki_uuid` from the legacy keys Anki keeps as JSON in field 255 (`other`).
    var crowdAnkiUUID: String?
  }

  static func noteTypeConfig(_ blob: Data, location: SourceLocation) throws -> NoteTypeConfig {
    var reader = ProtobufReader(blob, location: location)
    var config = NoteTypeConfig()
    while let field = try reader.nextField() {
      switch (field.number, field.wireType) {
      case (1, .varint): config.kind = try reader.readVarint() == 1 ? .cloze : .standard
      case (2, .varint): config.sortFieldIndex = Int(try reader.readUInt32())
      case (3, .lengthDelimited): config.css = try reader.readString()
      case (5, .lengthDelimited): config.latexPreamble = try reader.readString()
      case (6, .lengthDelimited): config.latexPostamble = try reader.readString()
      case (7, .varint): config.latexSVG = try reader.readBool()
      case (9, .varint): config.originalStockKind = Int(try reader.readUInt32())
      case (10, .varint): config.originalID = try reader.readInt64()
      case (255, .lengthDelimited): config.crowdAnkiUUID = crowdAnkiUUID(other: try reader.readLengthDelimited())
      default: try reader.skip(field.wireType)
      }
    }
    return config
  }

  /// The `crowdanki_uuid` a deck's `Deck.Common` blob (the `decks.common` column) keeps among
  /// its legacy keys (field 255, `other`), where Anki puts the key CrowdAnki adds to the deck.
  static func deckCrowdAnkiUUID(common blob: Data, location: SourceLocation) throws -> String? {
    var reader = ProtobufReader(blob, location: location)
    var uuid: String?
    while let field = try reader.nextField() {
      if field.number == 255 && field.wireType == .lengthDelimited {
        uuid = crowdAnkiUUID(other: try reader.readLengthDelimited())
      } else {
        try reader.skip(field.wireType)
      }
    }
    return uuid
  }

  /// `crowdanki_uuid` of the JSON object in an `other` field (the schema-11 keys Anki does not
  /// model); nil when it has none or the bytes are not a JSON object.
  static func crowdAnkiUUID(other: Data) -> String? {
    let object = (try? FoundationJSON.object(other)) as? [String: Any]
    return object?["crowdanki_uuid"] as? String
  }

  /// A field from its `fields` row: the name from the column, the rest from `Field.Config`.
  static func field(name: String, config blob: Data, location: SourceLocation) throws
    -> NoteType.Field
  {
    var reader = ProtobufReader(blob, location: location)
    var field = NoteType.Field(name: name, fontName: "", fontSize: 0)
    while let entry = try reader.nextField() {
      switch (entry.number, entry.wireType) {
      case (1, .varint): field.sticky = try reader.readBool()
      case (2, .varint): field.rightToLeft = try reader.readBool()
      case (3, .lengthDelimited): field.fontName = try reader.readString()
      case (4, .varint): field.fontSize = Int(try reader.readUInt32())
      case (5, .lengthDelimited): field.description = try reader.readString()
      case (6, .varint): field.plainText = try reader.readBool()
      case (7, .varint): field.collapsed = try reader.readBool()
      case (8, .varint): field.excludeFromSearch = try reader.readBool()
      case (9, .varint): field.ankiID = try reader.readInt64()
      case (10, .varint): field.tag = Int(try reader.readUInt32())
      case (11, .varint): field.preventDeletion = try reader.readBool()
      default: try reader.skip(entry.wireType)
      }
    }
    return field
  }

  /// A template from its `templates` row: the name from the column, the rest from
  /// `Template.Config`.
  static func template(name: String, config blob: Data, location: SourceLocation) throws
    -> NoteType.CardTemplate
  {
    var reader = ProtobufReader(blob, location: location)
    var template = NoteType.CardTemplate(name: name, questionFormat: "", answerFormat: "")
    while let entry = try reader.nextField() {
      switch (entry.number, entry.wireType) {
      case (1, .lengthDelimited): template.questionFormat = try reader.readString()
      case (2, .lengthDelimited): template.answerFormat = try reader.readString()
      case (3, .lengthDelimited): template.browserQuestionFormat = try reader.readString()
      case (4, .lengthDelimited): template.browserAnswerFormat = try reader.readString()
      case (5, .varint):
        let deckID = try reader.readInt64()
        template.targetDeckID = deckID == 0 ? nil : deckID
      case (6, .lengthDelimited): template.browserFontName = try reader.readString()
      case (7, .varint): template.browserFontSize = Int(try reader.readUInt32())
      case (8, .varint): template.ankiID = try reader.readInt64()
      default: try reader.skip(entry.wireType)
      }
    }
    return template
  }

  /// The deck kind and description from `Deck.KindContainer`
  /// (`1 Normal { 1 config_id; 4 description; 5 markdown_description }` or
  /// `2 Filtered { 1 reschedule; 2 repeated SearchTerm { 1 search; 2 limit; 3 order } }`).
  static func deckKind(_ blob: Data, location: SourceLocation) throws
    -> (kind: Deck.Kind, description: String, isMarkdown: Bool)
  {
    var reader = ProtobufReader(blob, location: location)
    var result: (kind: Deck.Kind, description: String, isMarkdown: Bool) =
      (.normal(optionsID: 0), "", false)
    while let entry = try reader.nextField() {
      switch (entry.number, entry.wireType) {
      case (1, .lengthDelimited):
        var normal = ProtobufReader(try reader.readLengthDelimited(), location: location.item("normal"))
        var optionsID: Int64 = 0
        while let field = try normal.nextField() {
          switch (field.number, field.wireType) {
          case (1, .varint): optionsID = try normal.readInt64()
          case (4, .lengthDelimited): result.description = try normal.readString()
          case (5, .varint): result.isMarkdown = try normal.readBool()
          default: try normal.skip(field.wireType)
          }
        }
        result.kind = .normal(optionsID: optionsID)
      case (2, .lengthDelimited):
        var filtered = ProtobufReader(
          try reader.readLengthDelimited(), location: location.item("filtered"))
        var settings = FilteredDeck(reschedule: false, searchTerms: [])
        while let field = try filtered.nextField() {
          switch (field.number, field.wireType) {
          case (1, .varint): settings.reschedule = try filtered.readBool()
          case (2, .lengthDelimited):
            settings.searchTerms.append(try searchTerm(try filtered.readLengthDelimited(), location: location))
          default: try filtered.skip(field.wireType)
          }
        }
        result.kind = .filtered(settings)
      default: try reader.skip(entry.wireType)
      }
    }
    return result
  }

  private static func searchTerm(_ blob: Data, location: SourceLocation) throws
    -> FilteredDeck.SearchTerm
  {
    var reader = ProtobufReader(blob, location: location.item("search term"))
    var term = FilteredDeck.SearchTerm(search: "", limit: 0, order: 0)
    while let field = try reader.nextField() {
      switch (field.number, field.wireType) {
      case (1, .lengthDelimited): term.search = try reader.readString()
      case (2, .varint): term.limit = Int(try reader.readUInt32())
      case (3, .varint): term.order = Int(try reader.readUInt32())
      default: try reader.skip(field.wireType)
      }
    }
    return term
  }
}
