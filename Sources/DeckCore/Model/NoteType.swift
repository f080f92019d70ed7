/// A note type: the ordered, named fields a note has, and the card templates that turn a note
/// into cards.
public struct NoteType: Sendable, Equatable, Identifiable {
  /// Standard (one card per template) or cloze (one card per cloze number).
  public enum Kind: String, Sendable, Equatable, CaseIterable {
    /// One card per template whose front is not empty.
    case standard
    /// One card per cloze deletion number, from a single template.
    case cloze
  }

  /// The note type's id (Anki matches note types by id on import).
  public var id: Int64
  /// The name shown to the user.
  public var name: String
  /// Standard or cloze.
  public var kind: Kind
  /// The fields, in order.
  public var fields: [Field]
  /// The card templates, in order (ordinal = index).
  public var templates: [CardTemplate]
  /// The style sheet shared by the templates.
  public var css: String
  /// The index of the field the browser sorts by.
  public var sortFieldIndex: Int
  /// Text placed before LaTeX snippets when Anki renders them.
  public var latexPreamble: String
  /// Text placed after LaTeX snippets.
  public var latexPostamble: String
  /// Whether LaTeX renders to SVG instead of PNG.
  public var latexSVG: Bool
  /// Which stock note type this one was made from (Anki's `originalStockKind`: 0 none,
  /// 1 Basic, 2 Basic and reversed, 3 optional reversed, 4 typing, 5 Cloze, 6 Image Occlusion).
  public var originalStockKind: Int
  /// The id this note type had in the collection it was imported from, if Anki recorded one.
  public var originalID: Int64?
  /// Last modification, in seconds since 1970.
  public var modificationTime: Int64
  /// The identity CrowdAnki gave the note type (`crowdanki_uuid`), kept so that CrowdAnki
  /// matches it again on the next import; nil when CrowdAnki never touched it.
  public var crowdAnkiUUID: String?
  /// What else Anki keeps of the note type, under its schema-11 keys: the deck it last added
  /// to (`did`), its sync state (`usn`), the tags last used with it (`tags`), and any key a later
  /// Anki adds. Values a fresh note type has are not kept. Sorted by key. See ``AnkiProperty``.
  public var ankiProperties: [AnkiProperty]

  /// Creates a note type.
  public init(
    id: Int64, name: String, kind: Kind = .standard, fields: [Field],
    templates: [CardTemplate], css: String = "", sortFieldIndex: Int = 0,
    latexPreamble: String = "", latexPostamble: String = "", latexSVG: Bool = false,
    originalStockKind: Int = 0, originalID: Int64? = nil, modificationTime: Int64 = 0,
    crowdAnkiUUID: String? = nil, ankiProperties: [AnkiProperty] = []
  ) {
    self.id = id
    self.name = name
    self.kind = kind
    self.fields = fields
    self.templates = templates
    self.css = css
    self.sortFieldIndex = sortFieldIndex
    self.latexPreamble = latexPreamble
    self.latexPostamble = latexPostamble
    self.latexSVG = latexSVG
    self.originalStockKind = originalStockKind
    self.originalID = originalID
    self.modificationTime = modificationTime
    self.crowdAnkiUUID = crowdAnkiUUID
    self.ankiProperties = ankiProperties
  }

  /// The field names, in order.
  public var fieldNames: [String] { fields.map(\.name) }

  /// The position of each field name, as a template's `{{Name}}` finds it (the first field of a
  /// name, where two share one; names compared exactly, as Anki compares them).
  package var fieldPositions: FieldPositions { FieldPositions(fields.lazy.map(\.name)) }

  /// A named field of a note type, with its editor settings.
  public struct Field: Sendable, Equatable {
    /// The field's name, unique within its note type.
    public var name: String
    /// The editor font.
    public var fontName: String
    /// The editor font size.
    public var fontSize: Int
    /// Whether the text runs right to left.
    public var rightToLeft: Bool
    /// Whether the editor keeps the value when adding the next note.
    public var sticky: Bool
    /// The placeholder shown in an empty field.
    public var description: String
    /// Whether the editor shows plain text instead of rich text.
    public var plainText: Bool
    /// Whether the editor starts with the field collapsed.
    public var collapsed: Bool
    /// Whether searches skip this field.
    public var excludeFromSearch: Bool
    /// Anki's stable field id, if the source has one.
    public var ankiID: Int64?
    /// The tag stock note types use to recognise their own fields.
    public var tag: Int?
    /// Whether the user may delete the field.
    public var preventDeletion: Bool
    /// What else Anki keeps of the field, under its schema-11 keys (such as `media`), sorted by
    /// key. See ``AnkiProperty``.
    public var ankiProperties: [AnkiProperty]

    /// Creates a field.
    public init(
      name: String, fontName: String = "Arial", fontSize: Int = 20, rightToLeft: Bool = false,
      sticky: Bool = false, description: String = "", plainText: Bool = false,
      collapsed: Bool = false, excludeFromSearch: Bool = false, ankiID: Int64? = nil,
      tag: Int? = nil, preventDeletion: Bool = false, ankiProperties: [AnkiProperty] = []
    ) {
      self.name = name
      self.fontName = fontName
      self.fontSize = fontSize
      self.rightToLeft = rightToLeft
      self.sticky = sticky
      self.description = description
      self.plainText = plainText
      self.collapsed = collapsed
      self.excludeFromSearch = excludeFromSearch
      self.ankiID = ankiID
      self.tag = tag
      self.preventDeletion = preventDeletion
      self.ankiProperties = ankiProperties
    }
  }

  /// A card template: how the front and back of one kind of card are built from the fields.
  public struct CardTemplate: Sendable, Equatable {
    /// The template's name, unique within its note type.
    public var name: String
    /// The front ("question format").
    public var questionFormat: String
    /// The back ("answer format").
    public var answerFormat: String
    /// The front as shown in the browser, when it differs.
    public var browserQuestionFormat: String
    /// The back as shown in the browser, when it differs.
    public var browserAnswerFormat: String
    /// The browser font.
    public var browserFontName: String
    /// The browser font size.
    public var browserFontSize: Int
    /// The deck new cards of this template go to, when it is not the current deck.
    public var targetDeckID: Int64?
    /// Anki's stable template id, if the source has one.
    public var ankiID: Int64?
    /// What else Anki keeps of the template, under its schema-11 keys, sorted by key. See
    /// ``AnkiProperty``.
    public var ankiProperties: [AnkiProperty]

    /// Creates a card template.
    public init(
      name: String, questionFormat: String, answerFormat: String,
      browserQuestionFormat: String = "", browserAnswerFormat: String = "",
      browserFontName: String = "", browserFontSize: Int = 0, targetDeckID: Int64? = nil,
      ankiID: Int64? = nil, ankiProperties: [AnkiProperty] = []
    ) {
      self.name = name
      self.questionFormat = questionFormat
      self.answerFormat = answerFormat
      self.browserQuestionFormat = browserQuestionFormat
      self.browserAnswerFormat = browserAnswerFormat
      self.browserFontName = browserFontName
      self.browserFontSize = browserFontSize
      self.targetDeckID = targetDeckID
      self.ankiID = ankiID
      self.ankiProperties = ankiProperties
    }
  }
}
