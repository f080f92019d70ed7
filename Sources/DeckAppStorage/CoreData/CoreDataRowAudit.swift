import DeckCore
import DeckIO

/// Checks the raw rows a write produced, without the key-to-column mapping the writer used (a
/// read-back through that mapping would share its mistakes):
///
/// - each row has the entity's `Z_ENT`, a `Z_OPT` of at least 1, and a key the hierarchy root's
///   `Z_MAX` covers;
/// - each non-null column holds the storage class its declared SQL type calls for (`INTEGER`,
///   `FLOAT`/`TIMESTAMP`, `VARCHAR`, `BLOB`);
/// - each non-null column is named after a property of the entity or its superentities (`Z` and
///   the upper-cased name, perhaps with a number), and no row of another entity of the table uses
///   it: a value in a sibling entity's column is caught even when the names differ only by the
///   number Core Data appended.
struct CoreDataRowAudit {
  let database: SQLiteDatabase
  let model: CoreDataModel?
  let entity: CoreDataEntityLayout
  let location: SourceLocation

  /// Throws a verification failure naming the row and column of the first problem.
  func check(primaryKeys: [Int64]) throws {
    guard !primaryKeys.isEmpty else { return }
    let table = SQLiteRecordSchema.quoted(entity.table)
    let info = try database.prepare("PRAGMA table_info(\(table))", table: entity.table)
    var declared: [(name: String, type: String)] = []
    while try info.step() { declared.append((info.text(1), info.text(2).uppercased())) }

    let maximum = try database.prepare("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", table: "Z_PRIMARYKEY")
    maximum.bind(1, int64: entity.rootNumber)
    let rootMaximum = try maximum.step() ? maximum.int64(0) : 0
    func names(_ owner: CoreDataModel.Entity) -> [String] {
      owner.properties.flatMap { property -> [String] in
        if case .composite(let composite) = property { return composite.elements.map { $0.name.uppercased() } }
        return [property.name.uppercased()]
      }
    }
    let lineage = model?.lineage(of: entity.name) ?? []
    let propertyNames = Set(lineage.flatMap(names))
    let inheritedNames = Set(lineage.dropLast().flatMap(names))
    let ownNames = propertyNames.subtracting(inheritedNames)
    func base(_ column: String) -> String? {
      let whole = String(column.uppercased().dropFirst())
      if propertyNames.contains(whole) { return whole }
      let stripped = Self.baseName(column)
      return propertyNames.contains(stripped) ? stripped : nil
    }

    let wanted = Set(primaryKeys)
    let rows = try database.prepare(
      "SELECT * FROM \(table) WHERE Z_PK IN (\(wanted.map(String.init).joined(separator: ", ")))", table: entity.table)
    var usedColumns = Set<String>()
    while try rows.step() {
      var cells: [String: SQLiteValue] = [:]
      for index in 0..<rows.columnCount { cells[rows.columnName(index)] = rows.value(index) }
      guard case .integer(let key)? = cells["Z_PK"] else { continue }
      let here = location.table(entity.table, row: key)
      guard case .integer(entity.entityNumber)? = cells["Z_ENT"] else {
        throw failure(here, "Z_ENT is not \(entity.entityNumber)")
      }
      guard case .integer(let version)? = cells["Z_OPT"], version >= 1 else {
        throw failure(here, "Z_OPT is not a positive integer")
      }
      guard key <= rootMaximum else {
        throw failure(
          here,
          "the key is above Z_MAX \(rootMaximum) of the root entity \(entity.rootName); the app's next save would reuse it"
        )
      }
      for (name, type) in declared where !["Z_PK", "Z_ENT", "Z_OPT"].contains(name) {
        guard let cell = cells[name], cell.type != .null else { continue }
        if let expected = Self.storageClass(declaredType: type), cell.type != expected,
          !(expected == .real && cell.type == .integer)
        {
          throw failure(
            here.item("column \(name)"),
            "the column is declared \(type) but holds a value of storage class \(cell.type)")
        }
        guard model != nil else { continue }
        if try isOtherSidesColumn(name, lineage: lineage) { continue }
        guard let property = base(name) else {
          throw failure(
            here.item("column \(name)"), "the column belongs to no property of \(entity.name) or its superentities")
        }
        if ownNames.contains(property) { usedColumns.insert(name) }
      }
    }
    // A column of the entity's own properties must not be used by rows of entities that do not
    // inherit them.
    let family = try descendants()
    for column in usedColumns.sorted() {
      let other = try database.prepare(
        "SELECT Z_ENT FROM \(table) WHERE \(SQLiteRecordSchema.quoted(column)) IS NOT NULL AND Z_ENT NOT IN (\(family.map(String.init).joined(separator: ", "))) LIMIT 1",
        table: entity.table)
      if try other.step() {
        let number = other.int64(0)
        throw failure(
          location.table(entity.table).item("column \(column)"),
          "the new rows of \(entity.name) use a column that rows of entity number \(number) use; the value went into another entity's column"
        )
      }
    }
  }

  /// Whether `column` keeps another entity's to-many relationship to this one in this table:
  /// `Z<n><NAME>` (entity `n`'s to-many `name` without inverse), or an order column
  /// `Z_FOK_<NAME>` / `Z_FOK_<n><NAME>` of such a relationship or of the inverse of a to-one.
  private func isOtherSidesColumn(_ column: String, lineage: [CoreDataModel.Entity]) throws -> Bool {
    guard let model else { return false }
    var name = Substring(column.uppercased())
    let isOrder = name.hasPrefix("Z_FOK_")
    name = isOrder ? name.dropFirst(6) : name.dropFirst()
    let digits = name.prefix { $0.isNumber }
    let lineageNames = Set(lineage.map(\.name))
    if digits.isEmpty {
      // Z_FOK_<NAME>: the order of the to-many that is the inverse of this row's to-one NAME.
      return isOrder
        && lineage.contains { owner in
          owner.properties.contains { property in
            if case .relationship(let relationship) = property {
              return !relationship.isToMany && relationship.name.uppercased() == name
            }
            return false
          }
        }
    }
    guard let number = Int64(digits) else { return false }
    let relationshipName = name.dropFirst(digits.count)
    let statement = try database.prepare("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = ?", table: "Z_PRIMARYKEY")
    statement.bind(1, int64: number)
    guard try statement.step() else { return false }
    return model.lineage(of: statement.text(0)).contains { owner in
      owner.properties.contains { property in
        guard case .relationship(let relationship) = property else { return false }
        return relationship.isToMany && relationship.name.uppercased() == relationshipName
          && model.lineage(of: entity.name).contains { $0.name == relationship.destination }
          && lineageNames.contains(relationship.destination)
      }
    }
  }

  /// The entity's number and those of every entity that inherits from it.
  private func descendants() throws -> [Int64] {
    let statement = try database.prepare("SELECT Z_ENT, Z_SUPER FROM Z_PRIMARYKEY", table: "Z_PRIMARYKEY")
    var parents: [Int64: Int64] = [:]
    while try statement.step() { parents[statement.int64(0)] = statement.int64(1) }
    return parents.keys.filter { number in
      var current: Int64? = number
      var steps = 0
      while let step = current, steps < 64 {
        if step == entity.entityNumber { return true }
        current = parents[step].flatMap { $0 == 0 ? nil : $0 }
        steps += 1
      }
      return false
    }
  }

  /// `ZTITLE2` → `TITLE`; relationship bookkeeping (`Z1_BOOK`) → `BOOK`.
  static func baseName(_ column: String) -> String {
    var name = Substring(column.uppercased())
    if name.hasPrefix("Z") { name = name.dropFirst() }
    if let underscore = name.firstIndex(of: "_"), name[..<underscore].allSatisfy(\.isNumber) {
      name = name[name.index(after: underscore)...]
    }
    while let last = name.last, last.isNumber { name = name.dropLast() }
    return String(name)
  }

  /// The storage class Core Data writes into a column of this declared type.
  static func storageClass(declaredType: String) -> SQLiteValueType? {
    if declaredType.contains("INT") { return .integer }
    if declaredType.contains("FLOAT") || declaredType.contains("TIMESTAMP") { return .real }
    if declaredType.contains("VARCHAR") { return .text }
    if declaredType.contains("BLOB") { return .blob }
    return nil
  }

  private func failure(_ place: SourceLocation, _ message: String) -> DeckError {
    DeckError(.writeFailed, at: place, "verification failed: \(message)")
  }
}
