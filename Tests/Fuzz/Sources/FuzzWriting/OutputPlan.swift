import DeckAnki
import DeckAppStorage
import DeckCSV
import DeckConversion
import DeckCore
import DeckCrowdAnki
import DeckIO
import DeckJSON
import Foundation

/// One output step, read from the input: the format, and the options the CLI would pass for it.
package struct OutputPlan {
  package var format: any DeckFormat
  package var options = FormatOptions()
  /// For `core-data`: the store the app created, which the writer fills.
  package var store: StoreTemplate?

  package init(_ input: inout FuzzInput, stores: [StoreTemplate]) {
    let registry = FormatRegistry.standard
    format = input.pick(registry.outputNames.compactMap { registry.writer(named: $0) })
    options[DuplicateGUIDPolicy.self] = input.pick(DuplicateGUIDPolicy.allCases)
    switch format.name {
    case .csv, .tsv, .cards:
      var csv = CSVOptions()
      let layout = input.byte()
      if layout & 1 == 1 {
        csv.separator = input.pick(
          [.tab, .pipe, CSVSeparator(byte: UInt8(ascii: ";")), CSVSeparator(byte: 0x2C)].compactMap { $0 })
      }
      if layout & 2 == 2 { csv.hasHeaderRow = true }
      if layout & 4 == 4 {
        csv.columns = try? ColumnMapping(
          parsing: input.pick([
            "front,back", "back,front,tags", "guid,notetype,deck,front,back,tags", "front,-,back",
            "front,back,due,interval,ease,reviews,lapses,suspended",
          ]))
      }
      if layout & 8 == 8 { csv.isHTML = layout & 16 == 16 }
      options[CSVOptions.self] = csv
    case .plist, .appJSON, .sqlite, .coreData:
      var app = AppStorageOptions()
      let profiles: [AppProfileChoice] = [.automatic, .generic] + AppRecordProfile.all.map { .named($0) }
      if format.name == .coreData {
        let chosen = input.pick(stores)
        store = chosen
        // Mostly the profile the store's entity holds, sometimes another, to test refusals.
        app.profile =
          input.byte() % 4 == 3
          ? input.pick(profiles)
          : AppRecordProfile.all.first { $0.id == chosen.profile }.map { .named($0) } ?? .automatic
        options[AppRecordMatching.self] = AppRecordMatching(policy: input.pick(ExistingRecordPolicy.allCases))
      } else {
        app.profile = input.pick(profiles)
      }
      app.plistStyle = input.pick(PlistRecordStyle.allCases)
      let dates: [JSONDateEncoding?] = [nil] + JSONDateEncoding.allCases.map { $0 }
      app.jsonDates = input.pick(dates)
      if input.byte() % 8 == 7 { app.key = input.string() }
      options[AppStorageOptions.self] = app
    default: break
    }
  }

  /// Writes `collection` into `folder` as `deckport convert` would; returns the file's path.
  package func write(_ collection: DeckCollection, in folder: String) throws -> String {
    let description = format.description
    var path = (folder as NSString).appendingPathComponent("deck.\(description.newFileExtension ?? "folder")")
    var context = FormatWriteContext(destination: path, options: options)
    if description.changesInPlace {
      if let store {
        path = store.place(in: folder)
        context = FormatWriteContext(destination: path, options: options, existingOutput: .replace)
      }
      _ = try format.write(collection, to: path, context: context)
      return path
    }
    if description.isFolder {
      _ = try AtomicOutput.writeFolder(to: path, replacing: false) { temporaryPath in
        try format.write(collection, to: temporaryPath, context: context)
      }
      return path
    }
    _ = try AtomicOutput.write(to: path, replacing: false) { temporaryPath in
      try format.write(collection, to: temporaryPath, context: context)
    }
    return path
  }

  /// Reads the file this step wrote, as `deckport convert` reads an input: in the format its
  /// name and content show (the reader of the format written, or of its package kind).
  package func read(_ path: String) throws -> DeckCollection {
    var readOptions = options
    if !format.description.changesInPlace { readOptions[AppStorageOptions.self] = AppStorageOptions() }
    let deck = try DeckLoader().load(path: path, options: readOptions)
    var total: Int64 = 0
    for file in deck.collection.media {
      try file.blob.forEachChunk { chunk in
        total += Int64(chunk.count)
        if total > 64 << 20 { throw DeckError(.limitExceeded, at: SourceLocation(file: "(fuzz)"), "budget") }
      }
    }
    return deck.collection
  }
}
