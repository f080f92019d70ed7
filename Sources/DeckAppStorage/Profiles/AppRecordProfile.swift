/// A named record shape of a known app, built in so its records map onto notes well: which key
/// is which note field, which key is the note's identity, and the type each key holds.
///
/// ```swift
/// AppRecordProfile.flashzilla.keys      // ["id", "prompt", "answer"]
/// AppRecordProfile.named("neomnemo")    // the NeoMnemo Mnemonic profile
/// ```
///
/// Records of any other flat shape need no profile: they map field-for-key.
public struct AppRecordProfile: Sendable, Hashable, CustomStringConvertible {
  /// What a profile key becomes in a note.
  public enum Role: Sendable, Hashable {
    /// A note field with this name.
    case field(String)
    /// The note's GUID (a UUID identity such as Flashzilla's `id`).
    case noteGUID
    /// The note's creation time: its id in milliseconds since 1970 (Flashcard Quiz's `createdAt`).
    case noteCreation
  }

  /// One key of the profile.
  public struct Field: Sendable, Hashable {
    /// The key as the app spells it.
    public var key: String
    /// The type the app stores under it.
    public var type: AppValueType
    /// What the key becomes in a note.
    public var role: Role
    /// Whether every record of the app has the key (optional keys may be absent, as
    /// `JSONEncoder` leaves out nil optionals).
    public var required: Bool

    /// Creates a profile field.
    public init(key: String, type: AppValueType, role: Role, required: Bool) {
      self.key = key
      self.type = type
      self.role = role
      self.required = required
    }
  }

  /// The short name `--profile` takes: `flashzilla`, `neomnemo`, `flashcard-quiz`, `idealic`.
  public var id: String
  /// The app and record type: "Flashzilla Card" (the name of the note type records become).
  public var title: String
  /// The app: "Flashzilla" (the name of the deck records become).
  public var app: String
  /// The record type's name in the app (the Swift type, the Core Data entity).
  public var recordType: String
  /// The keys in the app's order.
  public var fields: [Field]

  /// Creates a profile.
  public init(id: String, title: String, app: String, recordType: String, fields: [Field]) {
    self.id = id
    self.title = title
    self.app = app
    self.recordType = recordType
    self.fields = fields
  }

  /// The keys in order.
  public var keys: [String] { fields.map(\.key) }

  /// The note field names, in order.
  public var noteFieldNames: [String] {
    fields.compactMap { if case .field(let name) = $0.role { name } else { nil } }
  }

  public var description: String { "\(title) (\(id))" }

  /// Flashzilla's `Card {id: UUID, prompt: String, answer: String}` (Hacking with Swift); the
  /// UUID becomes the note's GUID.
  public static let flashzilla = AppRecordProfile(
    id: "flashzilla", title: "Flashzilla Card", app: "Flashzilla", recordType: "Card",
    fields: [
      Field(key: "id", type: .uuid, role: .noteGUID, required: false),
      Field(key: "prompt", type: .string, role: .field("Prompt"), required: true),
      Field(key: "answer", type: .string, role: .field("Answer"), required: true),
    ])

  /// NeoMnemo's `Mnemonic {keyword, story, image: Data, notes}`; the image becomes a media file
  /// shown in the Image field.
  public static let neoMnemo = AppRecordProfile(
    id: "neomnemo", title: "NeoMnemo Mnemonic", app: "NeoMnemo", recordType: "Mnemonic",
    fields: [
      Field(key: "keyword", type: .string, role: .field("Keyword"), required: true),
      Field(key: "story", type: .string, role: .field("Story"), required: true),
      Field(key: "image", type: .data, role: .field("Image"), required: false),
      Field(key: "notes", type: .string, role: .field("Notes"), required: false),
    ])

  /// Flashcard Quiz's `Flashcard {word, definition, createdAt: Date, wordTypeRaw}`; the
  /// creation date becomes the note's id (milliseconds since 1970).
  public static let flashcardQuiz = AppRecordProfile(
    id: "flashcard-quiz", title: "Flashcard Quiz Flashcard", app: "Flashcard Quiz", recordType: "Flashcard",
    fields: [
      Field(key: "word", type: .string, role: .field("Word"), required: true),
      Field(key: "definition", type: .string, role: .field("Definition"), required: true),
      Field(key: "createdAt", type: .date, role: .noteCreation, required: false),
      Field(key: "wordTypeRaw", type: .string, role: .field("Word Type"), required: false),
    ])

  /// Idealic's logs `{title, text}`.
  public static let idealic = AppRecordProfile(
    id: "idealic", title: "Idealic Log", app: "Idealic", recordType: "Log",
    fields: [
      Field(key: "title", type: .string, role: .field("Title"), required: true),
      Field(key: "text", type: .string, role: .field("Text"), required: true),
    ])

  /// Every built-in profile, in the order detection tries them.
  public static let all: [AppRecordProfile] = [.flashzilla, .neoMnemo, .flashcardQuiz, .idealic]

  /// The built-in profile with this ``id`` (case-insensitive), or nil.
  public static func named(_ id: String) -> AppRecordProfile? {
    all.first { $0.id == id.lowercased() }
  }
}
