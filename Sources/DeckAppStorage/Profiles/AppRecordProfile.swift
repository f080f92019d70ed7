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
    /// Whether the app's model requires the key (a non-optional property): records deckport makes
    /// from notes always have it. Optional keys may be absent, as `JSONEncoder` leaves out nil
    /// optionals and Core Data stores NULL.
    public var required: Bool
    /// Whether records without this required key still fit the profile (`fits(_:)`):
    /// true for keys that writing can supply (an id derived from the GUID, a creation date, empty
    /// image data, a word type), so records of older app versions and hand-made files still fit.
    public var mayBeMissing: Bool
    /// The only values the key takes (the raw values of an app enum), or nil for any text.
    public var choices: Choices?

    /// Creates a profile field.
    public init(
      key: String, type: AppValueType, role: Role, required: Bool, mayBeMissing: Bool = false, choices: Choices? = nil
    ) {
      self.key = key
      self.type = type
      self.role = role
      self.required = required
      self.mayBeMissing = mayBeMissing
      self.choices = choices
    }
  }

  /// The short name `--profile` takes: `flashzilla`, `neomnemo`, `flashcard-quiz`, `idealic`.
  public var id: String
  /// The app and record type: "Flashzilla Card" (the name of the note type records become).
  public var title: String
  /// The app: "Flashzilla" (the name of the deck records become).
  public var app: String
  /// The record type's name in the app (the Swift type, the Core Data entity): the name records
  /// made from notes get.
  public var recordType: String
  /// Other names the app's versions give the record type (Flashzilla's SwiftData entity
  /// `CardEntity`), accepted wherever ``recordType`` picks an entity.
  public var alternateRecordTypes: [String]
  /// The keys in the app's order.
  public var fields: [Field]
  /// The keys that identify a record across imports (Flashzilla's `id`, NeoMnemo's `keyword`):
  /// two records with equal values under all of them are the same record.
  public var identityKeys: [String]

  /// Creates a profile.
  public init(
    id: String, title: String, app: String, recordType: String, alternateRecordTypes: [String] = [], fields: [Field],
    identityKeys: [String] = []
  ) {
    self.id = id
    self.title = title
    self.app = app
    self.recordType = recordType
    self.alternateRecordTypes = alternateRecordTypes
    self.fields = fields
    self.identityKeys = identityKeys
  }

  /// ``recordType`` followed by ``alternateRecordTypes``: every name an entity of the app has.
  public var recordTypeNames: [String] { [recordType] + alternateRecordTypes }

  /// The keys in order.
  public var keys: [String] { fields.map(\.key) }

  /// The note field names, in order.
  public var noteFieldNames: [String] {
    fields.compactMap { if case .field(let name) = $0.role { name } else { nil } }
  }

  public var description: String { "\(title) (\(id))" }
}
