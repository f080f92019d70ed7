import DeckCore
import Foundation

extension AppRecordProfile {
  /// The values a key takes when the app stores the raw value of an enum (Flashcard Quiz's
  /// `WordType`), and what note text that is none of them becomes.
  ///
  /// Text is matched trimmed and without case (`" Verb "` is `verb`); anything else, empty text
  /// included, becomes ``multiWord`` when the record's ``decidingKey`` holds more than one word,
  /// else ``singleWord``, with a `<name>-mapped` warning (`word-type-mapped`).
  public struct Choices: Sendable, Hashable {
    /// What the values are, for messages: "word type".
    public var name: String
    /// The raw values, as the app spells them.
    public var values: [String]
    /// The key whose text decides between ``singleWord`` and ``multiWord``.
    public var decidingKey: String
    /// The value for unknown text when ``decidingKey`` holds one word.
    public var singleWord: String
    /// The value for unknown text when ``decidingKey`` holds whitespace between words.
    public var multiWord: String

    /// Creates a set of choices.
    public init(name: String, values: [String], decidingKey: String, singleWord: String, multiWord: String) {
      self.name = name
      self.values = values
      self.decidingKey = decidingKey
      self.singleWord = singleWord
      self.multiWord = multiWord
    }

    /// The warning category for mapped text: the name with `-` for spaces, then `-mapped`
    /// (``Diagnostic/Category/wordTypeMapped`` for ``AppRecordProfile/flashcardQuizWordTypes``).
    public var warningCategory: Diagnostic.Category {
      Diagnostic.Category(rawValue: name.split(separator: " ").joined(separator: "-") + "-mapped")
    }

    /// The value `text` names (trimmed, without case), or nil.
    public func value(matching text: String) -> String? {
      let wanted = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
      return values.first { $0.lowercased() == wanted }
    }

    /// The value for text that names none: by whether `deciding` holds more than one word.
    public func fallback(deciding: String) -> String {
      let words = deciding.split(whereSeparator: { $0.isWhitespace })
      return words.count > 1 ? multiWord : singleWord
    }
  }
}
