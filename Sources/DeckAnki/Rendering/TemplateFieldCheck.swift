import DeckCore

/// What Anki's note type API refuses in a note type's card templates when a note type is added
/// or updated through it, as CrowdAnki's import adds each note model: a template that does not
/// parse, or one that names a field the note type does not have (`Card template 1 in note type
/// 'Vocab' has a problem. Field 'X Word' not found.`). Anki's import of a package keeps such a
/// note type, and shows the error on its cards instead.
///
/// Checked against the real backend (`Tests/anki/test_crowdanki_import_of_ours.py`): a
/// replacement (`{{Word}}`, `{{text:Word}}`, `{{type:Word}}`, `{{cloze:Word}}`) must name a field
/// or one of Anki's special fields (`FrontSide`, `Tags`, `Type`, `Deck`, `Subdeck`, `CardFlag`,
/// `Card`, `CardID`; `{{c1}}` is not one), and a section (`{{#Word}}`, `{{^Word}}`) a field, a
/// special field or a cloze number (`c1`). Names are compared exactly (`{{front}}` is not
/// `Front`). The browser's formats are not checked by Anki, nor here.
package enum TemplateFieldCheck {
  /// The templates of `noteType` Anki's note type API refuses, each with why, in template order.
  package static func problems(in noteType: NoteType) -> [(template: String, problem: String)] {
    let fields = Set(noteType.fields.map { Substring($0.name) })
    var problems: [(template: String, problem: String)] = []
    for template in noteType.templates {
      for (side, text) in [("front", template.questionFormat), ("back", template.answerFormat)] {
        let nodes: [AnkiTemplate.Node]
        do {
          nodes = try AnkiTemplate(parsing: text).nodes
        } catch {
          problems.append((template.name, "its \(side) does not parse (\(RenderingMessages.describing(error)))"))
          break
        }
        if let missing = firstMissingField(in: nodes, fields: fields) {
          problems.append(
            (template.name, "its \(side) names the field '\(missing)', which the note type does not have"))
          break
        }
      }
    }
    return problems
  }

  /// The first name `nodes` use that is neither one of `fields` nor one Anki provides.
  private static func firstMissingField(in nodes: [AnkiTemplate.Node], fields: Set<Substring>) -> Substring? {
    for node in nodes {
      switch node {
      case .text, .comment: continue
      case .replacement(let key, _):
        if key.isEmpty || fields.contains(key) || specialNames.contains(key) { continue }
        return key
      case .conditional(let key, let children), .negatedConditional(let key, let children):
        guard fields.contains(key) || specialNames.contains(key) || TemplateRendering.isClozeSection(key) else {
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
