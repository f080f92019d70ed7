/// The note types every Anki collection starts with, exactly as the real Anki backend creates
/// them (anki 26.9.3, `col.models.by_name(…)`): fields, card templates, styling, sort field,
/// LaTeX settings and stock kind.
///
/// Give an app's cards one of these and Anki shows them as it shows its own; a CSV row naming one
/// gets the real note type, so the cards Anki makes from a converted file are the cards it would
/// make from the same file imported directly. Each has an id derived from its name, the same in
/// every deck deckport makes, so decks made at different times share one note type in Anki.
///
/// ```swift
/// StockNoteType.basicAndReversedCard.noteType.templates.count   // 2
/// StockNoteType(named: "cloze")?.noteType.fieldNames            // ["Text", "Back Extra"]
/// ```
public enum StockNoteType: String, Sendable, CaseIterable {
  /// "Basic": a front and a back, one card.
  case basic = "Basic"
  /// "Basic (and reversed card)": a card each way.
  case basicAndReversedCard = "Basic (and reversed card)"
  /// "Basic (optional reversed card)": the reverse card only when the "Add Reverse" field has text.
  case basicOptionalReversedCard = "Basic (optional reversed card)"
  /// "Basic (type in the answer)": the back is typed in and compared.
  case basicTypeInTheAnswer = "Basic (type in the answer)"
  /// "Cloze": one card per cloze deletion (`{{c1::…}}`) in the "Text" field.
  case cloze = "Cloze"
  /// "Image Occlusion": masks drawn over an image, one card per mask group.
  case imageOcclusion = "Image Occlusion"

  /// The stock note type with this name, compared ignoring case as Anki compares note type
  /// names; nil for any other name.
  public init?(named name: String) {
    let folded = name.lowercased()
    guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == folded }) else { return nil }
    self = found
  }

  /// The note type, as Anki creates it; its id is derived from its name.
  public var noteType: NoteType {
    Self.made[self] ?? made
  }

  /// Whether `noteType` is a stock note type as Anki creates it in one of its languages
  /// (``noteType(named:fieldNames:)``): same name, kind, fields, templates and styling (ids and
  /// editor settings aside).
  package static func isUnchanged(_ noteType: NoteType) -> Bool {
    differences(of: noteType)?.isEmpty ?? false
  }

  /// What of `noteType` differs from the stock note type of its name, as Anki creates it in one
  /// of its languages (``noteType(named:fieldNames:)``), in words ("styling", "templates", …):
  /// empty when nothing differs (ids and editor settings aside), nil when its name is no stock
  /// note type's. A note type an older Anki created differs in what Anki has changed since, most
  /// often its styling.
  package static func differences(of noteType: NoteType) -> [String]? {
    guard let stock = Self.noteType(named: noteType.name, fieldNames: noteType.fieldNames) else { return nil }
    let templates = { (type: NoteType) in type.templates.map { [$0.name, $0.questionFormat, $0.answerFormat] } }
    let checks: [(String, Bool)] = [
      ("name's letter case", stock.name != noteType.name),
      ("kind", stock.kind != noteType.kind),
      ("fields", stock.fieldNames != noteType.fieldNames),
      ("sort field", stock.sortFieldIndex != noteType.sortFieldIndex),
      ("templates", templates(stock) != templates(noteType)),
      ("styling", stock.css != noteType.css),
    ]
    return checks.filter(\.1).map(\.0)
  }

  /// The id deckport gives a note type named `name` that its source names but does not define
  /// (a CSV file), and each stock note type.
  package static func derivedID(forName name: String) -> Int64 {
    DerivedID.id(for: "notetype\u{1F}" + name)
  }

  /// Each note type, made once.
  private static let made = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.made) })

  /// The note type, made from its definition.
  private var made: NoteType {
    switch self {
    case .basic:
      Self.makeStandard(
        rawValue, stockKind: 1, fields: ["Front", "Back"],
        templates: [("Card 1", "{{Front}}", Self.answer("{{FrontSide}}", "{{Back}}"))])
    case .basicAndReversedCard:
      Self.makeStandard(
        rawValue, stockKind: 2, fields: ["Front", "Back"],
        templates: [
          ("Card 1", "{{Front}}", Self.answer("{{FrontSide}}", "{{Back}}")),
          ("Card 2", "{{Back}}", Self.answer("{{FrontSide}}", "{{Front}}")),
        ])
    case .basicOptionalReversedCard:
      Self.makeStandard(
        rawValue, stockKind: 3, fields: ["Front", "Back", "Add Reverse"],
        templates: [
          ("Card 1", "{{Front}}", Self.answer("{{FrontSide}}", "{{Back}}")),
          ("Card 2", "{{#Add Reverse}}{{Back}}{{/Add Reverse}}", Self.answer("{{FrontSide}}", "{{Front}}")),
        ])
    case .basicTypeInTheAnswer:
      Self.makeStandard(
        rawValue, stockKind: 4, fields: ["Front", "Back"],
        templates: [("Card 1", "{{Front}}\n\n{{type:Back}}", Self.answer("{{Front}}", "{{type:Back}}"))])
    case .cloze:
      Self.makeCloze(
        rawValue, stockKind: 5,
        fields: [
          NoteType.Field(name: "Text", tag: 0, preventDeletion: true),
          NoteType.Field(name: "Back Extra", tag: 1),
        ],
        template: ("Cloze", "{{cloze:Text}}", "{{cloze:Text}}<br>\n{{Back Extra}}"),
        css: NoteType.stockBasicCSS + Self.clozeCSS)
    case .imageOcclusion:
      Self.makeCloze(
        rawValue, stockKind: 6,
        fields: [
          NoteType.Field(name: "Occlusion", tag: 0, preventDeletion: true),
          NoteType.Field(name: "Image", tag: 1, preventDeletion: true),
          NoteType.Field(name: "Header", tag: 2, preventDeletion: true),
          NoteType.Field(name: "Back Extra", tag: 3, preventDeletion: true),
          NoteType.Field(name: "Comments", tag: 4),
        ],
        template: ("Image Occlusion", Self.imageOcclusionFront, Self.imageOcclusionBack), css: Self.imageOcclusionCSS)
    }
  }

  private static func answer(_ front: String, _ back: String) -> String {
    front + "\n\n<hr id=answer>\n\n" + back
  }

  private static func makeStandard(
    _ name: String, stockKind: Int, fields: [String], templates: [(String, String, String)]
  ) -> NoteType {
    NoteType(
      id: derivedID(forName: name), name: name, kind: .standard,
      fields: fields.map { NoteType.Field(name: $0) },
      templates: templates.map { NoteType.CardTemplate(name: $0.0, questionFormat: $0.1, answerFormat: $0.2) },
      css: NoteType.stockBasicCSS, latexPreamble: latexPreamble, latexPostamble: latexPostamble,
      originalStockKind: stockKind)
  }

  private static func makeCloze(
    _ name: String, stockKind: Int, fields: [NoteType.Field], template: (String, String, String), css: String
  ) -> NoteType {
    NoteType(
      id: derivedID(forName: name), name: name, kind: .cloze, fields: fields,
      templates: [NoteType.CardTemplate(name: template.0, questionFormat: template.1, answerFormat: template.2)],
      css: css, latexPreamble: latexPreamble, latexPostamble: latexPostamble, originalStockKind: stockKind)
  }

  private static let clozeCSS = #"""
    .cloze {
        font-weight: bold;
        color: blue;
    }
    .nightMode .cloze {
        color: lightblue;
    }

    """#

  private static let latexPreamble = #"""
    \documentclass[12pt]{article}
    \special{papersize=3in,5in}
    \usepackage[utf8]{inputenc}
    \usepackage{amssymb,amsmath}
    \pagestyle{empty}
    \setlength{\parindent}{0in}
    \begin{document}

    """#

  private static let latexPostamble = #"\end{document}"#

  private static let imageOcclusionFront = #"""
    {{#Header}}<div>{{Header}}</div>{{/Header}}
    <div style="display: none">{{cloze:Occlusion}}</div>
    <div id="err"></div>
    <div id="image-occlusion-container">
        {{Image}}
        <canvas id="image-occlusion-canvas"></canvas>
    </div>
    <script>
    try {
        anki.imageOcclusion.setup();
    } catch (exc) {
        document.getElementById("err").innerHTML = `Error loading image occlusion. Is your Anki version up to date?<br><br>${exc}`;
    }
    </script>

    """#

  private static let imageOcclusionBack =
    imageOcclusionFront + #"""

      <div><button id="toggle">Toggle Masks</button></div>
      {{#Back Extra}}<div>{{Back Extra}}</div>{{/Back Extra}}

      """#

  private static let imageOcclusionCSS = #"""
    #image-occlusion-canvas {
        --inactive-shape-color: #ffeba2;
        --active-shape-color: #ff8e8e;
        --inactive-shape-border: 1px #212121;
        --active-shape-border: 1px #212121;
        --highlight-shape-color: #ff8e8e00;
        --highlight-shape-border: 1px #ff8e8e;
    }

    .card {
        font-family: arial;
        font-size: 20px;
        text-align: center;
        color: black;
        background-color: white;
    }

    """#
}
