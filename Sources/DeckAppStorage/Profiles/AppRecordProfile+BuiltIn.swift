extension AppRecordProfile {
  /// Flashzilla's `struct Card: Codable, Identifiable { var id = UUID(); var prompt: String; var
  /// answer: String }` (Hacking with Swift), JSON under the UserDefaults key `Cards` or in
  /// `cards.json`; its SwiftData version is `@Model class CardEntity` with a unique `id`. The
  /// UUID becomes the note's GUID, and is derived from the GUID on the way back.
  public static let flashzilla = AppRecordProfile(
    id: "flashzilla", title: "Flashzilla Card", app: "Flashzilla", recordType: "Card",
    alternateRecordTypes: ["CardEntity"],
    fields: [
      Field(key: "id", type: .uuid, role: .noteGUID, required: true, mayBeMissing: true),
      Field(key: "prompt", type: .string, role: .field("Prompt"), required: true),
      Field(key: "answer", type: .string, role: .field("Answer"), required: true),
    ],
    identityKeys: ["id"])

  /// NeoMnemo's SwiftData `@Model class Mnemonic { var keyword: String; var story: String; var
  /// image: Data }`; the image becomes a media file shown in the Image field, and empty data
  /// (`Data()`, what the app stores without a picture) no media at all.
  public static let neoMnemo = AppRecordProfile(
    id: "neomnemo", title: "NeoMnemo Mnemonic", app: "NeoMnemo", recordType: "Mnemonic",
    fields: [
      Field(key: "keyword", type: .string, role: .field("Keyword"), required: true),
      Field(key: "story", type: .string, role: .field("Story"), required: true),
      Field(key: "image", type: .data, role: .field("Image"), required: true, mayBeMissing: true),
    ],
    identityKeys: ["keyword"])

  /// The raw values of Flashcard Quiz's `WordType`.
  public static let flashcardQuizWordTypes = Choices(
    name: "word type",
    values: [
      "noun", "verb", "adjective", "adverb", "preposition", "conjunction", "pronoun", "interjection", "determiner",
      "phrase",
    ],
    decidingKey: "word", singleWord: "noun", multiWord: "phrase")

  /// Flashcard Quiz's SwiftData `@Model class Flashcard { var word: String; var definition:
  /// String; var createdAt: Date; var wordTypeRaw: String }`; the creation date becomes the
  /// note's id (milliseconds since 1970), and `wordTypeRaw` is one of ``flashcardQuizWordTypes``.
  public static let flashcardQuiz = AppRecordProfile(
    id: "flashcard-quiz", title: "Flashcard Quiz Flashcard", app: "Flashcard Quiz", recordType: "Flashcard",
    fields: [
      Field(key: "word", type: .string, role: .field("Word"), required: true),
      Field(key: "definition", type: .string, role: .field("Definition"), required: true),
      Field(key: "createdAt", type: .date, role: .noteCreation, required: true, mayBeMissing: true),
      Field(
        key: "wordTypeRaw", type: .string, role: .field("Word Type"), required: true, mayBeMissing: true,
        choices: flashcardQuizWordTypes),
    ],
    identityKeys: ["word"])

  /// Idealic's Core Data entity "logs" (`Logs` as Xcode capitalises it, table `ZLOGS`) with the
  /// optional strings `title` and `text`, in `<Model>.sqlite`.
  public static let idealic = AppRecordProfile(
    id: "idealic", title: "Idealic Log", app: "Idealic", recordType: "Logs", alternateRecordTypes: ["logs"],
    fields: [
      Field(key: "title", type: .string, role: .field("Title"), required: false),
      Field(key: "text", type: .string, role: .field("Text"), required: false),
    ],
    identityKeys: ["title", "text"])

  /// Every built-in profile, in the order detection tries them.
  public static let all: [AppRecordProfile] = [.flashzilla, .neoMnemo, .flashcardQuiz, .idealic]

  /// The built-in profile with this ``id`` (case-insensitive), or nil.
  public static func named(_ id: String) -> AppRecordProfile? {
    all.first { $0.id == id.lowercased() }
  }
}
