import DeckCore
import DeckIO
import Foundation
import JSONCore

extension CollectionReader {
  /// The collection's list of tags (``RegisteredTag``): the rows of the `tags` table (schema 14
  /// on; `collapsed` from schema 17), else the members of the `col` row's `tags` JSON (tag to
  /// update sequence number). A JSON member whose value is not an integer is left out with a
  /// warning naming it; so is the whole JSON when it is not an object.
  func readTagRegistry() throws -> (tags: [RegisteredTag], warnings: [Diagnostic]) {
    if database.tableExists("tags") {
      let hasCollapsed = try columnNames(of: "tags").contains("collapsed")
      let rows = try database.prepare(
        hasCollapsed ? "SELECT tag, usn, collapsed FROM tags" : "SELECT tag, usn FROM tags", table: "tags")
      var tags: [RegisteredTag] = []
      while try rows.step() {
        tags.append(
          RegisteredTag(
            name: rows.text(0), updateSequenceNumber: rows.int64(1),
            isCollapsed: hasCollapsed ? rows.int64(2) != 0 : nil))
      }
      return (tags, [])
    }
    let statement = try database.prepare("SELECT tags FROM col", table: "col")
    guard try statement.step() else { return ([], []) }
    let here = location.table("col", row: 1).item("column tags")
    guard let members = (try? JSONParser.parse(Array(statement.text(0).utf8), options: .anki))?.members else {
      return (
        [],
        [Diagnostic(.tagRegistryUnreadable, at: here, "the list of tags is not a JSON object, so it is not kept")]
      )
    }
    var tags: [RegisteredTag] = []
    var warnings: [Diagnostic] = []
    for (name, value) in members {
      guard case .integer(let usn) = value else {
        warnings.append(
          Diagnostic(
            .tagRegistryUnreadable, at: location.table("col", row: 1).item("column tags, tag '\(name)'"),
            "the tag's update sequence number is not an integer, so the tag is not kept in the list"))
        continue
      }
      tags.append(RegisteredTag(name: name, updateSequenceNumber: usn))
    }
    return (tags, warnings)
  }

  /// The names of the columns of `table`.
  private func columnNames(of table: String) throws -> [String] {
    let statement = try database.prepare("PRAGMA table_info(\(table))", table: table)
    var names: [String] = []
    while try statement.step() { names.append(statement.text(1)) }
    return names
  }
}
