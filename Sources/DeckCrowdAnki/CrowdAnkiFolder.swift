import DeckCore
import DeckIO
import Foundation

/// Where things are in a CrowdAnki folder: the deck file (`deck.json`, or `<folder>.json` as
/// CrowdAnki's importer also accepts) and the `media/` folder beside it.
package enum CrowdAnkiFolder {
  /// The name CrowdAnki gives the deck file.
  package static let deckFileName = "deck.json"
  /// The folder media files sit in, by their Anki names.
  package static let mediaFolderName = "media"
  /// The file of CrowdAnki's import choices (personal fields, tags to add, whether cards move
  /// between decks), which set the defaults of its import dialog.
  package static let importConfigFileName = "import_config.yaml"

  /// The deck file inside the folder at `path`, or nil when it has none.
  package static func deckFile(in path: String) -> String? {
    let folder = URL(fileURLWithPath: path)
    let candidates = [deckFileName, folder.standardizedFileURL.lastPathComponent + ".json"]
    return candidates.map { folder.appendingPathComponent($0).path }
      .first { FileManager.default.fileExists(atPath: $0) }
  }

  /// Whether `path` is a folder whose deck file holds a JSON object (its first character other
  /// than white space or a byte order mark is `{`), or is not a regular file (a named pipe, a
  /// link to a device) or leads outside the folder, which is not opened here: the reader then
  /// judges the rest, and refuses such a deck file by name.
  package static func looksLikeCrowdAnki(path: String) -> Bool {
    guard let file = deckFile(in: path) else { return false }
    if let kind = FileManager.default.notRegularFileKind(atPath: file) { return kind != .folder }
    if FolderBoundary(folder: path).outsideLink(at: file) != nil { return true }
    return JSONFileHead.firstByte(ofFileAt: file) == UInt8(ascii: "{")
  }
}
