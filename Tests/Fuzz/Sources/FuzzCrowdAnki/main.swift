import DeckConversion
import DeckCore
import DeckCrowdAnki
import Foundation
import FuzzSupport

// Any bytes as a CrowdAnki folder, read as `deckport convert --from crowdanki FOLDER` reads it
// (`DeckLoader` through the format registry): the reader must answer with a collection or a
// DeckError, and the media files it lists must be readable or refused with a DeckError.
//
// The input's first two bytes lay out the folder, the rest is the deck file:
// - bit 7 of the first names the deck file after the folder (`Deck.json`, which CrowdAnki's
//   importer also accepts) instead of `deck.json`;
// - bits 0 to 6 of the first each put one entry of `mediaEntries` into `media/`: a plain file,
//   then names Anki would not store as they are (NFD, a device name, a trailing dot, a control
//   character, a forbidden character, too long), and a hidden folder;
// - bits 0 to 3 of the second each put one entry of `specialEntries` into `media/`, entries that
//   are not regular files (a named pipe, links to `/dev/zero`, to nothing, to their own folder);
//   bit 4 makes the deck file a named pipe, bit 5 a link to `/dev/zero`, bit 6 makes `media`
//   a link to the folder it is in, and bit 7 puts `media/out.png` there, a link to a file outside
//   the folder, whose bytes no media file may hold.
let folder = FuzzScratchFolder(name: "Deck")

/// What each bit of the first byte puts into `media/`: a relative path (a folder when it ends
/// in `/`) and its bytes.
let mediaEntries: [(path: String, bytes: Data)] = [
  ("media/a.png", Data([0x89, 0x50, 0x4E, 0x47])),
  ("media/e\u{301}t\u{E9}.mp3", Data("sound".utf8)),
  ("media/CON", Data("device".utf8)),
  ("media/trailing.", Data()),
  ("media/tab\u{1}[1].jpg", Data("x".utf8)),
  ("media/" + String(repeating: "long", count: 40) + ".png", Data("y".utf8)),
  ("media/.hidden/", Data()),
]

/// With DECKPORT_FUZZ_VERBOSE set, each input's DeckError is printed, to see how deep inputs get.
let verbose = ProcessInfo.processInfo.environment["DECKPORT_FUZZ_VERBOSE"] != nil

/// What each of bits 0 to 3 of the second byte puts into `media/`.
let specialEntries: [(path: String, special: FuzzScratchFolder.Special)] = [
  ("media/pipe.png", .fifo), ("media/zero.png", .endlessLink), ("media/gone.png", .danglingLink),
  ("media/loop", .loopLink),
]

runFuzzer { data in
  folder.reset()
  let layout = data.first ?? 0
  let specials = data.dropFirst().first ?? 0
  if specials & 0x40 != 0 { folder.make(.loopLink, at: CrowdAnkiFolder.mediaFolderName) }
  for (bit, entry) in mediaEntries.enumerated() where layout & (1 << bit) != 0 {
    folder.write(entry.bytes, at: entry.path)
  }
  for (bit, entry) in specialEntries.enumerated() where specials & (1 << bit) != 0 {
    folder.make(entry.special, at: entry.path)
  }
  if specials & 0x80 != 0 { folder.make(.outsideLink, at: "media/out.png") }
  let deckFile = layout & 0x80 != 0 ? "Deck.json" : CrowdAnkiFolder.deckFileName
  if specials & 0x10 != 0 {
    folder.make(.fifo, at: deckFile)
  } else if specials & 0x20 != 0 {
    folder.make(.endlessLink, at: deckFile)
  } else {
    folder.write(Data(data.dropFirst(2)), at: deckFile)
  }
  do {
    let deck = try DeckLoader().load(path: folder.path, format: .crowdanki)
    try readAllMedia(deck.collection, forbidden: FuzzScratchFolder.outsideBytes)
    if verbose { FileHandle.standardError.write(Data("read: \(deck.collection.notes.count) notes\n".utf8)) }
  } catch let error as DeckError {
    if verbose { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
  } catch {
    fatalError("not a DeckError: \(error)")
  }
}
