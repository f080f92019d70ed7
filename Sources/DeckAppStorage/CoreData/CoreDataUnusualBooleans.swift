import DeckCore
import DeckIO

/// The Boolean cells of an entity's rows that hold an integer other than 0 or 1. Core Data
/// writes only 0 and 1, and reads any other integer as true, as deckport does; the warning says
/// so, because where the value goes (a JSON file, another store) it is true, not the number.
struct CoreDataUnusualBooleans {
  private var found: [String: (count: Int, firstRow: Int64, firstValue: Int64)] = [:]

  /// Notes `cell` when `column` is a Boolean attribute and the cell an integer other than 0 or 1.
  mutating func note(_ cell: SQLiteValue, of column: CoreDataEntityLayout.Column, row: Int64) {
    guard case .bool = column.type, case .integer(let number) = cell, number != 0, number != 1 else { return }
    if let seen = found[column.column] {
      found[column.column] = (seen.count + 1, seen.firstRow, seen.firstValue)
    } else {
      found[column.column] = (1, row, number)
    }
  }

  /// One warning a column, in column order.
  func warnings(entity: CoreDataEntityLayout, at location: SourceLocation) -> [Diagnostic] {
    entity.columns.compactMap { column in
      guard let seen = found[column.column] else { return nil }
      let others = seen.count > 1 ? " (and \(CountedNoun.phrase(seen.count - 1, "other row")))" : ""
      return Diagnostic(
        .booleanNot0Or1, at: location,
        "entity \(entity.name): the Boolean attribute \(column.key) holds \(seen.firstValue) in row \(seen.firstRow)\(others), not 0 or 1; read as true, as Core Data reads it (written elsewhere, it is true)"
      )
    }
  }
}
