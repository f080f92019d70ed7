import DeckAnki
import DeckAppStorage
import DeckCSV
import DeckCore
import DeckCrowdAnki
import DeckJSON
import Foundation

/// Every format deckport reads or writes, in the order `deckport formats` lists them and
/// detection tries them: the one list that format detection, loading, writing, the `--from`
/// and `--to` values and the help text come from. A new format is a ``DeckFormat`` in its
/// module and one line here.
public struct FormatRegistry: Sendable {
  /// The formats, in order.
  public let formats: [any DeckFormat]

  /// A registry of `formats`, in the order given.
  public init(_ formats: [any DeckFormat]) {
    self.formats = formats
  }

  /// The formats deckport has.
  public static let standard = FormatRegistry([
    AnkiPackageFormat.apkg,
    AnkiPackageFormat.apkgModern,
    AnkiPackageFormat.colpkg,
    AnkiPackageFormat.colpkgModern,
    DeckJSONFormat(),
    DeckJSONDirectoryFormat(),
    CrowdAnkiFormat(),
    CSVFormat.csv,
    CSVFormat.tsv,
    CardTextFormat(),
    AppStorageFormat.plist,
    AppStorageFormat.appJSON,
    AppStorageFormat.sqlite,
    AppStorageFormat.coreData,
  ])

  /// What each format says about itself, in order.
  public var descriptions: [FormatDescription] { formats.map(\.description) }

  /// The format named `name`, or nil.
  public func format(named name: FormatName) -> (any DeckFormat)? {
    formats.first { $0.name == name }
  }

  /// The format `--from` means by `name` (its own name or an alias such as `app`), or nil.
  public func reader(named name: FormatName) -> (any DeckFormat)? {
    formats.first { $0.description.reads && ($0.name == name || $0.inputAliases.contains(name)) }
  }

  /// The format `--to` means by `name`, or nil.
  public func writer(named name: FormatName) -> (any DeckFormat)? {
    formats.first { $0.description.writes && $0.name == name }
  }

  /// The names `--from` takes: every format read, then the aliases.
  public var inputNames: [FormatName] {
    let names = formats.filter(\.description.reads).map(\.name)
    let aliases = formats.filter(\.description.reads).flatMap(\.inputAliases)
    return (names + aliases).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
  }

  /// The names `--to` takes.
  public var outputNames: [FormatName] { formats.filter(\.description.writes).map(\.name) }

  /// The format a file or folder is read as: for a folder, the folder format whose content it
  /// holds; for a file, the format its extension names, unless another format shares that
  /// extension and the content shows it is that one, or the content is not the named format's and
  /// another format recognises it (a zip named `.csv` is an Anki package); with no known
  /// extension, the first format that recognises the content. Nil when neither tells.
  public func detectInput(path: String) -> (any DeckFormat)? { detection(path: path).format }

  /// What ``detectInput(path:)`` finds, and the format the extension names when the content
  /// overruled it (nil otherwise): a format of another kind of file than the named one, such as
  /// an Anki package named `.csv`. Formats of one type (the kinds of app storage, whose reader
  /// reads each kind whatever the name) never overrule each other.
  package func detection(path: String) -> (format: (any DeckFormat)?, overruled: (any DeckFormat)?) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      return (formats.first { $0.description.reads && $0.description.isFolder && $0.recognizes(path: path) }, nil)
    }
    let readers = formats.filter { $0.description.reads && !$0.description.isFolder }
    let fileExtension = (path as NSString).pathExtension.lowercased()
    guard let named = readers.first(where: { $0.description.extensions.contains(fileExtension) }) else {
      return (readers.first { $0.recognizes(path: path) }, nil)
    }
    if named.recognizes(path: path) { return (named, nil) }
    let sharing = readers.filter { $0.sharedExtensions.contains(fileExtension) }
    if let shared = sharing.first(where: { $0.recognizes(path: path) }) { return (shared, nil) }
    let other = readers.first { type(of: $0) != type(of: named) && $0.recognizes(path: path) }
    return other.map { ($0, named) } ?? (named, nil)
  }

  /// The format a file is written as: the one its extension names, unless a format claims the
  /// existing file by its content (a Core Data store named `Model.sqlite`). Nil when neither tells.
  public func detectOutput(path: String) -> (any DeckFormat)? {
    let fileExtension = (path as NSString).pathExtension.lowercased()
    let named = formats.first { $0.description.writes && $0.description.extensions.contains(fileExtension) }
    let claimant = formats.first {
      $0.description.writes && $0.claimsExistingOutput(path: path, namedFormat: named?.name)
    }
    return claimant ?? named
  }

  /// The registry as one JSON object (`deckport formats --json`): `formats`, each with `name`,
  /// `summary`, `extensions`, `reads`, `writes`, `cannotHold` and `layout`.
  public func jsonText() throws -> String {
    struct Document: Encodable { var formats: [FormatDescription] }
    return try ReportJSON.text(Document(formats: descriptions))
  }
}
