import DeckConversion
import DeckCore
import DeckJSON
import Foundation
import FuzzSupport

// Any bytes as a json-dir folder, read as `deckport convert --from json-dir FOLDER` reads it
// (`DeckLoader` through the format registry): the reader must answer with a collection or a
// DeckError, and the media files it lists must be readable or refused with a DeckError.
//
// The input is a list of files, each record:
//   1 byte       the length L of the file's path inside the folder
//   L bytes      the path, as UTF-8: `deckport-dir.json`, `notes/<stem>.json`, `media/<name>`…;
//                ending in `/`, it makes a folder instead of a file
//   4 bytes      N, big-endian: its low 24 bits are the length of the file's bytes (cut to what
//                is left of the input); when its high byte is not 0, the record makes at the
//                path, instead of a file, the entry that is not a regular file that
//                `FuzzScratchFolder.Special` numbers by that byte (modulo their count): a named
//                pipe, a link to `/dev/zero`, to nothing, to its own folder, to a file outside the
//                folder (whose bytes no media file may hold)
//   N bytes      the file's bytes
// A path that would leave the folder or has more than two components is passed over; a
// later record with the same path replaces the file. `scripts/fuzz.sh` packs the seed, a
// folder deckport wrote, this way.
let folder = FuzzScratchFolder(name: "deck")

/// The files of `data`, in the order given, with the special entry each makes instead (or nil).
func records(_ data: Data) -> [(path: String, bytes: Data, special: FuzzScratchFolder.Special?)] {
  let specials = FuzzScratchFolder.Special.allCases
  let bytes = [UInt8](data)
  var files: [(path: String, bytes: Data, special: FuzzScratchFolder.Special?)] = []
  var offset = 0
  while offset < bytes.count {
    let pathLength = Int(bytes[offset])
    let pathEnd = min(bytes.count, offset + 1 + pathLength)
    let path = String(decoding: bytes[(offset + 1)..<pathEnd], as: UTF8.self)
    let lengthEnd = min(bytes.count, pathEnd + 4)
    let header = bytes[pathEnd..<lengthEnd].reduce(0) { $0 << 8 | Int($1) }
    let kind = header >> 24
    let end = min(bytes.count, lengthEnd + (header & 0xFF_FFFF))
    files.append((path, Data(bytes[lengthEnd..<end]), kind == 0 ? nil : specials[kind % specials.count]))
    offset = end
  }
  return files
}

/// With DECKPORT_FUZZ_VERBOSE set, each input's DeckError is printed, to see how deep inputs get.
let verbose = ProcessInfo.processInfo.environment["DECKPORT_FUZZ_VERBOSE"] != nil

runFuzzer { data in
  folder.reset()
  for file in records(data) {
    if let special = file.special {
      folder.make(special, at: file.path)
    } else {
      folder.write(file.bytes, at: file.path)
    }
  }
  do {
    let deck = try DeckLoader().load(path: folder.path, format: .jsonDir)
    try readAllMedia(deck.collection, forbidden: FuzzScratchFolder.outsideBytes)
    if verbose { FileHandle.standardError.write(Data("read: \(deck.collection.notes.count) notes\n".utf8)) }
  } catch let error as DeckError {
    if verbose { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
  } catch {
    fatalError("not a DeckError: \(error)")
  }
}
