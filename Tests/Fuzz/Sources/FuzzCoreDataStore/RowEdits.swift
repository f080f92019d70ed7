import DeckCore
import DeckIO
import Foundation

/// Hostile values put into a real store's rows: each edit picks a table (Z_PRIMARYKEY and
/// Z_METADATA included), a column, a row (or a new one) and a value, all from the input, and is
/// applied with SQL as any program might have written it. What the edits leave of the store is
/// then read and migrated; an edit SQLite refuses (a unique constraint) is passed over.
///
/// An edit is four bytes (table, column, row, kind of value) and the value's bytes: kinds 0 NULL;
/// 1 an integer (8 bytes); 2 an integer at an edge (1 byte: 0, ±1, the 64-bit and 32-bit limits,
/// Core Data's first private entity number, the largest key in the table plus one, wrapping); 3 a real
/// (8 bytes: NaN and infinities among them); 4 text and 5 a blob (a length byte and as many
/// bytes); 6 an external-storage reference (the file tag 0x02, a length byte and as many bytes of
/// name, a UUID or not, and a NUL); 7 another row's key (1 byte, which row), as a relationship's
/// column holds it. Row 0xFF is a new row.
struct RowEdit {
  enum Value {
    case null
    case integer(Int64)
    case edge(UInt8)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])
    case externalReference([UInt8])
    case otherRowKey(UInt8)
  }

  var table: UInt8
  var column: UInt8
  var row: UInt8
  var value: Value

  /// The first `count` edits of `bytes` (fewer when the bytes run out), and how many bytes they
  /// take.
  static func decode(_ bytes: ArraySlice<UInt8>, count: Int) -> (edits: [RowEdit], consumed: Int) {
    var rest = bytes
    func byte() -> UInt8 { rest.popFirst() ?? 0 }
    func take(_ length: Int) -> [UInt8] {
      let taken = Array(rest.prefix(length))
      rest = rest.dropFirst(length)
      return taken
    }
    func integer() -> Int64 { take(8).reversed().reduce(Int64(0)) { ($0 << 8) | Int64($1) } }
    var edits: [RowEdit] = []
    while edits.count < count, !rest.isEmpty {
      let (table, column, row, kind) = (byte(), byte(), byte(), byte() % 8)
      let value: Value
      switch kind {
      case 0: value = .null
      case 1: value = .integer(integer())
      case 2: value = .edge(byte())
      case 3: value = .real(Double(bitPattern: UInt64(bitPattern: integer())))
      case 4: value = .text(take(Int(byte())))
      case 5: value = .blob(take(Int(byte())))
      case 6: value = .externalReference(take(Int(byte())))
      default: value = .otherRowKey(byte())
      }
      edits.append(RowEdit(table: table, column: column, row: row, value: value))
    }
    return (edits, bytes.count - rest.count)
  }

  /// Applies `edits` to the database at `path`, in order.
  static func apply(_ edits: [RowEdit], toStoreAt path: String) throws {
    guard !edits.isEmpty else { return }
    let database = try SQLiteDatabase(path: path, readOnly: false, location: SourceLocation(file: path))
    var tables: [String] = []
    let names = try database.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    while try names.step() { tables.append(names.text(0)) }
    guard !tables.isEmpty else { return }
    for edit in edits { try edit.apply(to: database, tables: tables) }
  }

  private func apply(to database: SQLiteDatabase, tables: [String]) throws {
    func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    let table = tables[Int(self.table) % tables.count]
    let columns = try database.columnNames(of: table)
    guard !columns.isEmpty else { return }
    let column = columns[Int(self.column) % columns.count]
    var rows: [Int64] = []
    let listing = try database.prepare("SELECT rowid FROM \(quoted(table)) ORDER BY rowid")
    while try listing.step() { rows.append(listing.int64(0)) }
    let target: Int64
    if row == 0xFF || rows.isEmpty {
      guard (try? database.execute("INSERT INTO \(quoted(table)) DEFAULT VALUES")) != nil else { return }
      let last = try database.prepare("SELECT max(rowid) FROM \(quoted(table))")
      guard try last.step() else { return }
      target = last.int64(0)
    } else {
      target = rows[Int(row) % rows.count]
    }
    let update = try database.prepare("UPDATE \(quoted(table)) SET \(quoted(column)) = ? WHERE rowid = ?")
    switch value {
    case .null: update.bindNull(1)
    case .integer(let number): update.bind(1, int64: number)
    case .edge(let choice):
      let edges: [Int64] = [
        0, 1, -1, .max, .min, Int64(Int32.max) + 1, Int64(Int32.min) - 1, 16000, (rows.max() ?? 0) &+ 1,
      ]
      update.bind(1, int64: edges[Int(choice) % edges.count])
    case .real(let number): update.bind(1, double: number)
    case .text(let bytes): bytes.withUnsafeBufferPointer { update.bind(1, utf8: $0) }
    case .blob(let bytes): update.bind(1, blob: Data(bytes))
    case .externalReference(let name): update.bind(1, blob: Data([0x02]) + Data(name) + Data([0]))
    case .otherRowKey(let choice): update.bind(1, int64: rows.isEmpty ? 0 : rows[Int(choice) % rows.count])
    }
    update.bind(2, int64: target)
    _ = try? update.step()
  }
}
