import DeckCore
import DeckIO
import Foundation
import JSONCore

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
    /// The rest as schema-11 members: `did` (field 4) and the legacy keys of field 255.
    var members: [(key: String, value: JSONValue)] = []
  }

  static func noteTypeConfig(_ blob: Data, location: SourceLocation) throws -> NoteTypeConfig {
    var reader = ProtobufReader(blob, location: location)
    var config = NoteTypeConfig()
    var targetDeckID: Int64 = 0
    var other: [(key: String, value: JSONValue)] = []
    while let field = try reader.nextField() {
      switch (field.number, field.wireType) {
      case (1, .varint): config.kind = try reader.readVarint() == 1 ? .cloze : .standard
      case (2, .varint): config.sortFieldIndex = Int(try reader.readUInt32())
      case (3, .lengthDelimited): config.css = try reader.readString()
      case (4, .varint): targetDeckID = try reader.readInt64()
      case (5, .lengthDelimited): config.latexPreamble = try reader.readString()
      case (6, .lengthDelimited): config.latexPostamble = try reader.readString()
      case (7, .varint): config.latexSVG = try reader.readBool()
      case (9, .varint): config.originalStockKind = Int(try reader.readUInt32())
      case (10, .varint): config.originalID = try reader.readInt64()
      case (255, .lengthDelimited):
        other = otherMembers(try reader.readLengthDelimited())
        config.crowdAnkiUUID = crowdAnkiUUID(in: other)
      default: try reader.skip(field.wireType)
      }
    }
    // As Anki gives it in schema 11: no deck is `null`.
    config.members = [("did", targetDeckID > 0 ? .int(targetDeckID) : .null)] + other
    return config
  }

  /// The members of the JSON object in an `other` field (field 255: the schema-11 keys Anki
  /// does not model), in their order; none when the bytes are not a JSON object.
  static func otherMembers(_ blob: Data) -> [(key: String, value: JSONValue)] {
    (try? JSONParser.parse(blob, options: .anki))?.members ?? []
  }

  /// What a deck's `Deck.Common` blob (the `decks.common` column) holds besides the name:
  /// CrowdAnki's identity, from the legacy keys Anki keeps in field 255 (`other`), and the rest
  /// as schema-11 members, as Anki gives them: `collapsed` (1), `browserCollapsed` (2),
  /// `newToday`, `revToday`, `lrnToday` and `timeToday` (`[day, count]`: the day, field 3, with
  /// the new cards, reviews, learning cards and milliseconds studied that day, fields 4 to 7),
  /// then the legacy keys.
  static func deckCommon(_ blob: Data, location: SourceLocation) throws
    -> (crowdAnkiUUID: String?, members: [(key: String, value: JSONValue)])
  {
    var reader = ProtobufReader(blob, location: location)
    var uuid: String?
    var collapsed = false
    var browserCollapsed = false
    var day: Int64 = 0
    var studied: [Int: Int64] = [:]
    var other: [(key: String, value: JSONValue)] = []
    while let field = try reader.nextField() {
      switch (field.number, field.wireType) {
      case (1, .varint): collapsed = try reader.readBool()
      case (2, .varint): browserCollapsed = try reader.readBool()
      case (3, .varint): day = Int64(try reader.readUInt32())
      case (4...7, .varint): studied[field.number] = Int64(try reader.readInt32())
      case (255, .lengthDelimited):
        other = otherMembers(try reader.readLengthDelimited())
        uuid = crowdAnkiUUID(in: other)
      default: try reader.skip(field.wireType)
      }
    }
    func today(_ number: Int) -> JSONValue { .array([.int(day), .int(studied[number] ?? 0)]) }
    let members: [(key: String, value: JSONValue)] = [
      ("collapsed", .bool(collapsed)), ("browserCollapsed", .bool(browserCollapsed)),
      ("newToday", today(4)), ("revToday", today(5)), ("lrnToday", today(6)), ("timeToday", today(7)),
    ]
    return (uuid, members + other)
  }

  /// The `crowdanki_uuid` among the members of an `other` field (the key CrowdAnki adds to a
  /// deck or note type, which Anki keeps there), or nil.
  static func crowdAnkiUUID(in members: [(key: String, value: JSONValue)]) -> String? {
    members.last { $0.key == "crowdanki_uuid" }?.value.string
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
      case (255, .lengthDelimited):
        field.ankiProperties = Schema11Properties.properties(otherMembers(try reader.readLengthDelimited()), of: .field)
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
      case (255, .lengthDelimited):
        template.ankiProperties = Schema11Properties.properties(
          otherMembers(try reader.readLengthDelimited()), of: .template)
      default: try reader.skip(entry.wireType)
      }
    }
    return template
  }

  /// The deck kind and description from `Deck.KindContainer`
  /// (`1 Normal { 1 config_id; 4 description; 5 markdown_description; … }` or
  /// `2 Filtered { 1 reschedule; 2 repeated SearchTerm { 1 search; 2 limit; 3 order }; … }`),
  /// and the rest as schema-11 members, as Anki gives them: a normal deck's `extendNew` (2),
  /// `extendRev` (3), `reviewLimit` (6), `newLimit` (7), `reviewLimitToday` and `newLimitToday`
  /// (8, 9: `{"limit": …, "today": …}`) and `desiredRetention` (10, a fraction, given in whole
  /// percent); a filtered deck's `delays` (3), `previewDelay` (4), `previewHardSecs` (5),
  /// `previewGoodSecs` (6) and `previewAgainSecs` (7).
  static func deckKind(_ blob: Data, location: SourceLocation) throws
    -> (kind: Deck.Kind, description: String, isMarkdown: Bool, members: [(key: String, value: JSONValue)])
  {
    var reader = ProtobufReader(blob, location: location)
    var result: (kind: Deck.Kind, description: String, isMarkdown: Bool, members: [(key: String, value: JSONValue)]) =
      (.normal(optionsID: 0), "", false, [])
    while let entry = try reader.nextField() {
      switch (entry.number, entry.wireType) {
      case (1, .lengthDelimited):
        var normal = ProtobufReader(try reader.readLengthDelimited(), location: location.item("normal"))
        var optionsID: Int64 = 0
        // A field left out (proto3's default) gives what a fresh deck has.
        var members = Schema11Properties.normalDeckDefaults
        func set(_ key: String, _ value: JSONValue) {
          if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = value }
        }
        while let field = try normal.nextField() {
          switch (field.number, field.wireType) {
          case (1, .varint): optionsID = try normal.readInt64()
          case (2, .varint): set("extendNew", .int(Int64(try normal.readUInt32())))
          case (3, .varint): set("extendRev", .int(Int64(try normal.readUInt32())))
          case (4, .lengthDelimited): result.description = try normal.readString()
          case (5, .varint): result.isMarkdown = try normal.readBool()
          case (6, .varint): set("reviewLimit", .int(Int64(try normal.readUInt32())))
          case (7, .varint): set("newLimit", .int(Int64(try normal.readUInt32())))
          case (8, .lengthDelimited):
            set("reviewLimitToday", try dayLimit(try normal.readLengthDelimited(), location: location))
          case (9, .lengthDelimited):
            set("newLimitToday", try dayLimit(try normal.readLengthDelimited(), location: location))
          case (10, .fixed32):
            set("desiredRetention", percent(try normal.readFloat()))
          default: try normal.skip(field.wireType)
          }
        }
        result.kind = .normal(optionsID: optionsID)
        result.members = members
      case (2, .lengthDelimited):
        var filtered = ProtobufReader(
          try reader.readLengthDelimited(), location: location.item("filtered"))
        var settings = FilteredDeck(reschedule: false, searchTerms: [])
        var delays: [Float] = []
        var preview: [Int: Int64] = [:]
        while let field = try filtered.nextField() {
          switch (field.number, field.wireType) {
          case (1, .varint): settings.reschedule = try filtered.readBool()
          case (2, .lengthDelimited):
            settings.searchTerms.append(try searchTerm(try filtered.readLengthDelimited(), location: location))
          case (3, .lengthDelimited): delays += try filtered.readPackedFloats()
          case (3, .fixed32): delays.append(try filtered.readFloat())
          case (4...7, .varint): preview[field.number] = Int64(try filtered.readUInt32())
          default: try filtered.skip(field.wireType)
          }
        }
        result.kind = .filtered(settings)
        result.members = [
          ("delays", delays.isEmpty ? .null : .array(delays.map(number))),
          ("previewDelay", .int(preview[4] ?? 0)),
          ("previewHardSecs", .int(preview[5] ?? 0)),
          ("previewGoodSecs", .int(preview[6] ?? 0)),
          ("previewAgainSecs", .int(preview[7] ?? 0)),
        ]
      default: try reader.skip(entry.wireType)
      }
    }
    return result
  }

  /// A `DayLimit { 1 limit; 2 today }` as Anki gives it in schema 11.
  private static func dayLimit(_ blob: Data, location: SourceLocation) throws -> JSONValue {
    var reader = ProtobufReader(blob, location: location.item("day limit"))
    var limit: Int64 = 0
    var today: Int64 = 0
    while let field = try reader.nextField() {
      switch (field.number, field.wireType) {
      case (1, .varint): limit = Int64(try reader.readUInt32())
      case (2, .varint): today = Int64(try reader.readUInt32())
      default: try reader.skip(field.wireType)
      }
    }
    return .object([("limit", .int(limit)), ("today", .int(today))])
  }

  /// A fraction in whole percent, as Anki gives a deck's desired retention in schema 11 (held to
  /// 0 … 2³²−1, as Anki's conversion to a 32-bit count holds it), `null` when it is not a number.
  static func percent(_ fraction: Float) -> JSONValue {
    guard !fraction.isNaN else { return .null }
    let percent = (Double(fraction) * 100).rounded()
    return .int(Int64(min(max(percent, 0), Double(UInt32.max))))
  }

  /// A 32-bit float as JSON: its shortest text (`1.5`, `0.1`), `null` when not finite.
  private static func number(_ value: Float) -> JSONValue {
    value.isFinite ? .number(value.description) : .null
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
