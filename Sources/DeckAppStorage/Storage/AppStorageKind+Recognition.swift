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
      guard !DeckportDocumentFormat.beginsAsDeck(path: path),
        let document = try? JSONRecordFile(location: SourceLocation(file: path)).document(),
        !JSONRecordFile.isDeckWithoutFormat(document.value)
      else { return nil }
      return JSONRecordFile.holdsRecords(document.value) ? kind : nil
    }
  }
}
