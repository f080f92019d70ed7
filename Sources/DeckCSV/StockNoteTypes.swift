import DeckCore

/// The note types every Anki collection starts with, exactly as the real Anki backend creates
/// them (anki 26.9.3, `col.models.by_name(…)`): fields, card templates, styling, sort field,
/// LaTeX settings and stock kind.
///
/// A CSV row names its note type only by name; a row naming one of these gets the real note
/// type, so the cards Anki makes from a converted file are the cards it would make from the
/// same file imported directly.
///
/// ```swift
/// StockNoteTypes.noteType(named: "basic (and reversed card)")?.templates.count   // 2
/// ```
package enum StockNoteTypes {
  /// The names, in the order Anki lists them.
  package static let names = [
    basicName, "Basic (and reversed card)", "Basic (optional reversed card)",
    "Basic (type in the answer)", clozeName, "Image Occlusion",
  ]

  /// "Basic", the note type of rows that name none.
  package static let basicName = "Basic"
  /// "Cloze".
  package static let clozeName = "Cloze"

  /// The stock note type with this name (compared ignoring case, as Anki compares note type
  /// names), or nil. Its id is derived from the name, so every conversion gives it the same id.
  package static func noteType(named name: String) -> NoteType? {
    let folded = name.lowercased()
    guard let index = names.firstIndex(where: { $0.lowercased() == folded }) else { return nil }
    return all[index]
  }

  /// Whether `noteType` is a stock note type as Anki creates it: same name, kind, fields,
  /// templates and styling (ids and editor settings aside).
  package static func isUnchanged(_ noteType: NoteType) -> Bool {
    guard let stock = self.noteType(named: noteType.name) else { return false }
    return stock.name == noteType.name && stock.kind == noteType.kind && stock.fieldNames == noteType.fieldNames
      && stock.css == noteType.css && stock.sortFieldIndex == noteType.sortFieldIndex
      && stock.templates.map { [$0.name, $0.questionFormat, $0.answerFormat] }
        == noteType.templates.map { [$0.name, $0.questionFormat, $0.answerFormat] }
  }

  /// The id deckport gives a note type that a CSV file names but does not define.
  package static func derivedID(forName name: String) -> Int64 {
    DerivedID.id(for: "notetype\u{1F}" + name)
  }

  private static let all: [NoteType] = [
    standard(
      basicName, stockKind: 1, fields: ["Front", "Back"],
      templates: [("Card 1", "{{Front}}", answer("{{FrontSide}}", "{{Back}}"))]),
    standard(
      "Basic (and reversed card)", stockKind: 2, fields: ["Front", "Back"],
      templates: [
        ("Card 1", "{{Front}}", answer("{{FrontSide}}", "{{Back}}")),
        ("Card 2", "{{Back}}", answer("{{FrontSide}}", "{{Front}}")),
      ]),
    standard(
      "Basic (optional reversed card)", stockKind: 3, fields: ["Front", "Back", "Add Reverse"],
      templates: [
        ("Card 1", "{{Front}}", answer("{{FrontSide}}", "{{Back}}")),
        ("Card 2", "{{#Add Reverse}}{{Back}}{{/Add Reverse}}", answer("{{FrontSide}}", "{{Front}}")),
      ]),
    standard(
      "Basic (type in the answer)", stockKind: 4, fields: ["Front", "Back"],
      templates: [("Card 1", "{{Front}}\n\n{{type:Back}}", answer("{{Front}}", "{{type:Back}}"))]),
    cloze(
      clozeName, stockKind: 5,
      fields: [
        NoteType.Field(name: "Text", tag: 0, preventDeletion: true),
        NoteType.Field(name: "Back Extra", tag: 1),
      ],
      template: ("Cloze", "{{cloze:Text}}", "{{cloze:Text}}<br>\n{{Back Extra}}"),
      css: NoteType.stockBasicCSS + clozeCSS),
    cloze(
      "Image Occlusion", stockKind: 6,
      fields: [
        NoteType.Field(name: "Occlusion", tag: 0, preventDeletion: true),
        NoteType.Field(name: "Image", tag: 1, preventDeletion: true),
        NoteType.Field(name: "Header", tag: 2, preventDeletion: true),
        NoteType.Field(name: "Back Extra", tag: 3, preventDeletion: true),
        NoteType.Field(name: "Comments", tag: 4),
      ],
      template: ("Image Occlusion", imageOcclusionFront, imageOcclusionBack), css: imageOcclusionCSS),
  ]

  private static func answer(_ front: String, _ back: String) -> String {
    front + "\n\n<hr id=answer>\n\n" + back
  }

  private static func standard(
    _ name: String, stockKind: Int, fields: [String], templates: [(String, String, String)]
  ) -> NoteType {
    NoteType(
      id: derivedID(forName: name), name: name, kind: .standard,
      fields: fields.map { NoteType.Field(name: $0) },
      templates: templates.map { NoteType.CardTemplate(name: $0.0, questionFormat: $0.1, answerFormat: $0.2) },
      css: NoteType.stockBasicCSS, latexPreamble: latexPreamble, latexPostamble: latexPostamble,
      originalStockKind: stockKind)
  }

  private static func cloze(
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
