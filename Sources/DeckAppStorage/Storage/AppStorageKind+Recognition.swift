import DeckCore
import Foundation
import PlistCodec

extension AppStorageKind {
  /// The kind of app storage the existing file at `path` holds, judged by its content alone, or
  /// nil when it is not app storage: a deckport deck document, an Anki package, an SQLite file
  /// of another layout, unreadable bytes. Never throws; for telling app storage from deck files
  /// before choosing a reader (`deckport convert`).
  ///
  /// ```swift
  /// AppStorageKind.recognize(path: "cards.json")   // .jsonFile for an array of records
  /// AppStorageKind.recognize(path: "deck.json")    // nil for {"format": "deckport-deck", …}
  /// ```
  package static func recognize(path: String) -> AppStorageKind? {
    guard FileManager.default.fileExists(atPath: path), let kind = try? detect(path: path) else { return nil }
    switch kind {
    case .sqlite, .coreData:
      return kind
    case .plist:
      guard let data = FileManager.default.contents(atPath: path), (try? PlistDocument(data: data)) != nil else {
        return nil
      }
      return kind
    case .jsonFile:
      guard !DeckportDocumentFormat.namesDeck(path: path) else { return nil }
      guard let document = try? JSONRecordFile(location: SourceLocation(file: path)).document() else {
        // JSON that does not parse (an integer over 64 bits, a key given twice) is still an
        // app's array of records when it begins as one: no deck file is an array, so its
        // reader, not a deck reader, says what is wrong and where.
        return beginsAsArray(path: path) ? kind : nil
      }
      guard !JSONRecordFile.isDeckWithoutFormat(document.value) else { return nil }
      return JSONRecordFile.holdsRecords(document.value) ? kind : nil
    }
  }

  /// Whether the file's first character other than white space (after a UTF-8 byte order mark)
  /// is `[`.
  private static func beginsAsArray(path: String) -> Bool {
    JSONFileHead.firstByte(ofFileAt: path) == UInt8(ascii: "[")
  }
}
