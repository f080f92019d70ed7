import DeckCore
import DeckIO
import Foundation

/// The layout of a json-dir folder: the deckport JSON deck document split into one file per
/// note, note type, deck and option group, raw media under `media/`, and an index file
/// (`deckport-dir.json`) holding the collection's own values and the order of everything.
///
/// ```text
/// deckport-dir.json        format, version, creationTime, the order of every file, media list
/// deck-options/<id>.json   one option group
/// decks/<id>.json          one deck
/// note-types/<id>.json     one note type
/// notes/<hex GUID>.json    one note with its cards and their reviews
/// media/<name>             one media file, its bytes as they are
/// ```
///
/// A note's file is named by the lowercase hex of its GUID's UTF-8 bytes, so names are safe on
/// every file system, case-insensitive ones included; the GUID itself is inside the file.
package enum DeckJSONDirectory {
  /// The format name the index file starts with.
  package static let formatName = "deckport-dir"
  /// The version this deckport reads and writes.
  package static let currentVersion = 1
  /// The index file's name.
  package static let indexFileName = "deckport-dir.json"
  /// The folder of note files.
  package static let notesFolder = "notes"
  /// The folder of deck files.
  package static let decksFolder = "decks"
  /// The folder of note type files.
  package static let noteTypesFolder = "note-types"
  /// The folder of option group files.
  package static let deckOptionsFolder = "deck-options"
  /// The folder of media files.
  package static let mediaFolder = "media"
  /// GUIDs whose hex would be longer than this many characters name their file by SHA-1.
  static let longestHexName = 200

  /// Whether `path` is a folder holding a json-dir index file whose first bytes name the format,
  /// or an index that is not a regular file (a named pipe, a link to a device) or leads outside
  /// the folder, which is not opened here: the reader refuses it by name.
  package static func looksLikeDirectory(path: String) -> Bool {
    let index = URL(fileURLWithPath: path).appendingPathComponent(indexFileName).path
    if let kind = FileManager.default.notRegularFileKind(atPath: index) { return kind != .folder }
    if FolderBoundary(folder: path).outsideLink(at: index) != nil { return true }
    guard let handle = FileHandle(forReadingAtPath: index) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 256)) ?? Data()
    return String(decoding: head, as: UTF8.self).contains("\"\(formatName)\"")
  }

  /// The file name (without `.json`) of a note whose GUID is `guid`, the `occurrence`-th note
  /// (from 1) with that GUID: the lowercase hex of the GUID's UTF-8 bytes (`sha1-` and the
  /// SHA-1 of the GUID when that would be too long), with `~2`, `~3`… for later notes sharing
  /// a GUID, and `~1` for an empty GUID.
  package static func noteFileStem(guid: String, occurrence: Int) -> String {
    var stem = SHA1.hex(Array(guid.utf8))
    if stem.count > longestHexName {
      var hash = SHA1()
      Array(guid.utf8).withUnsafeBytes { hash.update($0) }
      stem = "sha1-" + SHA1.hex(hash.finalize())
    }
    return occurrence > 1 || stem.isEmpty ? "\(stem)~\(occurrence)" : stem
  }

  /// The file name (without `.json`) of an object whose id is `id`, the `occurrence`-th (from 1)
  /// with that id in its folder.
  static func idFileStem(_ id: Int64, occurrence: Int) -> String {
    occurrence > 1 ? "\(id)~\(occurrence)" : String(id)
  }

  /// Counts how often each key has been seen, for the `~2` suffix of a repeated name.
  struct OccurrenceCounter<Key: Hashable> {
    private var counts: [Key: Int] = [:]

    /// How many times `key` has been seen, this time included.
    mutating func next(_ key: Key) -> Int {
      let count = (counts[key] ?? 0) + 1
      counts[key] = count
      return count
    }
  }
}

/// The index file of a json-dir folder, `deckport-dir.json`.
struct DeckJSONDirectoryIndex: Codable, Equatable {
  /// Always `DeckJSONDirectory/formatName`.
  var format: String
  /// The format version.
  var version: Int
  /// The collection's creation time in seconds since 1970.
  var creationTime: Int64
  /// The file names (without `.json`) in `deck-options/`, in deck order.
  var deckOptions: [String]
  /// The file names in `decks/`, in order.
  var decks: [String]
  /// The file names in `note-types/`, in order.
  var noteTypes: [String]
  /// The file names in `notes/`, in order; left out when the notes are in the order of their
  /// ids, so that adding a note (on a branch, in a merge) adds one file and changes no other.
  var notes: [String]?
  /// For each card of the deck in order, the position in ``notes`` of the note whose file holds
  /// it; left out when the cards are in the order of their ids.
  var cardOrder: [Int]?
  /// For each review in order, the position in ``notes`` of the note whose file holds it (-1 for
  /// ``reviewsWithoutCard``); left out when the reviews are in the order of their ids.
  var reviewOrder: [Int]?
  /// Reviews of cards the deck does not have, in order; left out when there are none.
  var reviewsWithoutCard: [ReviewJSON]?
  /// Deletion records (Anki's `graves`), in order; left out when there are none.
  var deletions: [DeletionJSON]?
  /// The collection's settings (a collection package's), by key; left out when there are none.
  var settings: StringMembersJSON?
  /// The collection's list of tags (a collection package's), in order; left out when empty.
  var tagRegistry: [RegisteredTagJSON]?
  /// The media files in `media/`, in order, with their checksums.
  var media: [MediaEntry]

  /// A media file's entry: its bytes are the file `media/<name>`.
  struct MediaEntry: Codable, Equatable {
    var name: String
    var mimeType: String?
    var sha1: String
    var size: Int64
  }
}

/// A note's file in `notes/`: the note, its cards and their reviews, each in deck order.
///
/// deckport writes both lists, empty or not. A file written by hand may leave them out: without
/// `cards`, the note gets the cards Anki would make for it on import (in the deck its `deck`
/// key names, or the folder's only deck); without `reviews`, it has none.
struct DeckJSONNoteFile: Codable, Equatable {
  var note: NoteJSON
  var cards: [CardJSON]?
  var reviews: [ReviewJSON]?
}
