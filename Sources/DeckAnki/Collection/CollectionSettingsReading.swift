import DeckCore
import DeckIO
import Foundation
import JSONCore

extension CollectionReader {
  /// The collection's own settings (``AnkiProperty``), sorted by key: the rows of the
  /// `config` table (schema 14 on), else the members of the `col` row's `conf` JSON. A value
  /// that is not JSON text is left out with a warning naming it; so is the whole `conf` when it
  /// is not a JSON object.
  func readSettings() throws -> (settings: [AnkiProperty], warnings: [Diagnostic]) {
    var settings: [String: String] = [:]
    var warnings: [Diagnostic] = []
    if database.tableExists("config") {
      let rows = try database.prepare("SELECT key, val FROM config", table: "config")
      while try rows.step() {
        let key = rows.text(0)
        let value = rows.blob(1)
        guard let parsed = try? JSONParser.parse(value, options: .anki) else {
          warnings.append(
            Diagnostic(
              .settingUnreadable, at: location.table("config").item("key '\(key)'"),
              "the setting's value is not JSON text, so it is not kept"))
          continue
        }
        settings[key] = JSONWriter.text(of: parsed)
      }
    } else {
      let statement = try database.prepare("SELECT conf FROM col", table: "col")
      if try statement.step() {
        guard let members = (try? JSONParser.parse(Array(statement.text(0).utf8), options: .anki))?.members else {
          return (
            [],
            [
              Diagnostic(
                .settingUnreadable, at: location.table("col", row: 1).item("column conf"),
                "the collection's settings are not a JSON object, so none of them is kept")
            ]
          )
        }
        // A key given twice counts once, with its last value, as Anki reads it.
        for (key, value) in members { settings[key] = JSONWriter.text(of: value) }
      }
    }
    let sorted = settings.sorted { $0.key < $1.key }.map { AnkiProperty(key: $0.key, jsonText: $0.value) }
    return (sorted, warnings)
  }

  /// The value of the one setting `key`, read as ``readSettings()`` reads it (the last value of
  /// a key given twice), without reading the others; nil when it is absent or unreadable.
  func readSetting(_ key: String) throws -> JSONValue? {
    if database.tableExists("config") {
      // Every row, as the settings are read: a table without its primary key may give a key
      // twice (the last readable value counts), and a key may be stored as a blob.
      let rows = try database.prepare("SELECT key, val FROM config", table: "config")
      var value: JSONValue?
      while try rows.step() {
        guard rows.text(0) == key, let parsed = try? JSONParser.parse(rows.blob(1), options: .anki) else { continue }
        value = parsed
      }
      return value
    }
    let statement = try database.prepare("SELECT conf FROM col", table: "col")
    guard try statement.step() else { return nil }
    let members = (try? JSONParser.parse(Array(statement.text(0).utf8), options: .anki))?.members
    return members?.last { $0.key == key }?.value
  }
}
