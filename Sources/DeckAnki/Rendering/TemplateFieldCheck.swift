import DeckCore

/// What Anki's note type API refuses in a note type's card templates when a note type is added
/// or updated through it, as CrowdAnki's import adds each note model. Anki's import of a package
/// keeps such a note type, and shows the error on its cards instead.
///
/// Checked against the real backend (`Tests/anki/test_crowdanki_import_of_ours.py`), the API
/// refuses a template when:
/// * a side does not parse;
/// * a side names a field the note type does not have (`Card template 1 in note type 'Vocab'
///   has a problem. Field 'X Word' not found.`). A replacement (`{{Word}}`, `{{text:Word}}`,
///   `{{type:Word}}`, `{{cloze:Word}}`) must name a field or one of Anki's special fields
///   (`FrontSide`, `Tags`, `Type`, `Deck`, `Subdeck`, `CardFlag`, `Card`, `CardID`; `{{c1}}` is not
///   one), and a section (`{{#Word}}`, `{{^Word}}`) a field, a special field or a cloze number
///   (`c1`). Names are compared exactly (`{{front}}` is not `Front`);
/// * its front has no replacement or section at all (text and comments only, or nothing);
///   `{{Tags}}` or an empty `{{#Word}}{{/Word}}` is enough;
/// * its front is, byte for byte, an earlier template's front, unless it holds `{{Card}}`
///   (white space inside the braces allowed, no filter, in a comment too);
/// * it is a cloze note type's first template, and its front or its back has no replacement
///   through the `cloze` filter (`{{cloze:Text}}`, `{{type:cloze:Text}}`, inside a section too;
///   not `{{Cloze:Text}}`, nor one in a comment). Later templates of a cloze note type are not
///   held to that.
///
/// The browser's formats are not checked by Anki, nor here.
package enum TemplateFieldCheck {
  /// The templates of `noteType` Anki's note type API refuses, each with the first reason found
  /// in the order Anki looks, in template order.
  package static func problems(in noteType: NoteType) -> [(template: String, problem: String)] {
    let fields = noteType.fieldPositions
    var problems: [(template: String, problem: String)] = []
    // Each front (its UTF-8 bytes: Anki compares bytes, not canonical equivalents) and the first
    // template that has it.
    var fronts: [[UInt8]: String] = [:]
    for (index, template) in noteType.templates.enumerated() {
      let front = Array(template.questionFormat.utf8)
      let earlier = fronts[front]
      if earlier == nil { fronts[front] = template.name }
      // Anki compares the fronts before it reads any template.
      if let earlier, !namesCard(template.questionFormat) {
        problems.append((template.name, "its front is the same as that of template '\(earlier)'"))
      } else if let problem = sideProblem(
        of: template, fields: fields, needsCloze: noteType.kind == .cloze && index == 0)
      {
        problems.append((template.name, problem))
      }
    }
    return problems
  }

  /// The first reason, side by side, that Anki refuses `template` on its own.
  private static func sideProblem(
    of template: NoteType.CardTemplate, fields: FieldPositions, needsCloze: Bool
  ) -> String? {
    for (side, text) in [("front", template.questionFormat), ("back", template.answerFormat)] {
      let nodes: [AnkiTemplate.Node]
      do {
        nodes = try AnkiTemplate(parsing: text).nodes
      } catch {
        return "its \(side) does not parse (\(RenderingMessages.describing(error)))"
      }
      if let missing = firstMissingField(in: nodes, fields: fields) {
        return "its \(side) names the field '\(missing)', which the note type does not have"
      }
      if side == "front", !nodes.contains(where: isTag) {
        return "its front has no field replacement ({{Field}}) or section ({{#Field}}); Anki needs one on a front"
      }
      if needsCloze, !usesCloze(nodes) {
        return
          "its \(side) has no {{cloze:Field}}, which the first template of a cloze note type needs on its front and its back"
      }
    }
    return nil
  }

  /// Whether `node` is a replacement or a section, not text or a comment.
  private static func isTag(_ node: AnkiTemplate.Node) -> Bool {
    switch node {
    case .text, .comment: false
    case .replacement, .conditional, .negatedConditional: true
    }
  }

  /// Whether `nodes` hold, at any depth, a replacement through the `cloze` filter.
  private static func usesCloze(_ nodes: [AnkiTemplate.Node]) -> Bool {
    nodes.contains { node in
      switch node {
      case .text, .comment: false
      case .replacement(_, let filters): filters.contains("cloze")
      case .conditional(_, let children), .negatedConditional(_, let children): usesCloze(children)
      }
    }
  }

  /// Whether `front`'s text holds `{{Card}}`, with any Unicode white space inside the braces,
  /// which lets two templates share a front (each card then shows its own template's name).
  private static func namesCard(_ front: String) -> Bool {
    let scalars = Array(front.unicodeScalars)
    func skippingWhiteSpace(from start: Int) -> Int {
      scalars[start...].firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
    }
    for open in scalars.indices.dropLast() where scalars[open] == "{" && scalars[open + 1] == "{" {
      let name = skippingWhiteSpace(from: open + 2)
      guard scalars[name...].starts(with: "Card".unicodeScalars) else { continue }
      if scalars[skippingWhiteSpace(from: name + 4)...].starts(with: "}}".unicodeScalars) { return true }
    }
    return false
  }

  /// The first name `nodes` use that is neither one of `fields` nor one Anki provides.
  private static func firstMissingField(in nodes: [AnkiTemplate.Node], fields: FieldPositions) -> Substring? {
    for node in nodes {
      switch node {
      case .text, .comment: continue
      case .replacement(let key, _):
        if key.isEmpty || fields[key] != nil || specialNames.contains(key) { continue }
        return key
      case .conditional(let key, let children), .negatedConditional(let key, let children):
        guard fields[key] != nil || specialNames.contains(key) || TemplateRendering.isClozeSection(key) else {
          return key
        }
        if let missing = firstMissingField(in: children, fields: fields) { return missing }
      }
    }
    return nil
  }

  /// The fields Anki provides to every template: the front (on the back) and ``CardFields``'s
  /// special fields.
  private static let specialNames = Set<Substring>(["FrontSide"] + CardFields.specialNames)
}
