/// What each column of a plain spreadsheet holds, as given with `--columns front,back,tags,deck`
/// or by a first row of column names.
///
/// Each name is a role: `guid`, `notetype` (or `note type`), `deck` and `tags` (any case) are
/// the note's GUID, note type, deck and tags; `due`, `interval`, `ease`, `reviews`, `lapses`
/// and `suspended` are the schedule of the note's cards (``SchedulingColumn``); `-` or an empty
/// name skips the column; anything else names a field. Field names are matched to the note
/// type's fields ignoring case, and `front` and `back` also mean the first and second field of a
/// note type that has no field of that name (so `front,back` suits Basic, Cloze and most custom
/// note types).
///
/// ```swift
/// let mapping = try ColumnMapping(parsing: "front,back,tags,deck")
/// mapping.roles   // [.field("front"), .field("back"), .tags, .deck]
/// ```
public struct ColumnMapping: Sendable, Equatable, CustomStringConvertible {
  /// What one column holds.
  public enum Role: Sendable, Equatable {
    /// A field of the note, by name.
    case field(String)
    /// The note's GUID.
    case guid
    /// The note type's name.
    case noteType
    /// The deck's name (`A::B` for a subdeck).
    case deck
    /// Tags separated by spaces.
    case tags
    /// A part of the schedule of the note's cards.
    case scheduling(SchedulingColumn)
    /// Nothing deckport reads or writes.
    case skipped
  }

  /// The columns that carry a schedule through a spreadsheet (Anki's own CSV format has no place
  /// for one).
  ///
  /// Reading, a row with a due date makes every card of its note a card under review, due that
  /// day; a row whose scheduling cells are all empty makes new cards. Writing, a row holds the
  /// schedule of its note's first card when that card is under review, else empty cells, and
  /// whether that card is suspended.
  public enum SchedulingColumn: String, Sendable, CaseIterable {
    /// The day the card is next due, as `YYYY-MM-DD`, in the time zone of
    /// ``CSVOptions/timeZone``: the day Anki shows it (a day before today makes it overdue).
    case due
    /// The interval the card was last given, in whole days (0 to 36,500); needed with a due date.
    case interval
    /// How much the interval grows on a good answer, as `2.5` or `250%` (1.3 to 10); 2.5 when
    /// the cell is empty.
    case ease
    /// How many times the card was reviewed; 1 when the cell is empty.
    case reviews
    /// How many times it was forgotten after it had been learned; 0 when the cell is empty.
    case lapses
    /// Whether the note's cards are suspended, new or under review: `yes` or `no` (also `true`,
    /// `false`, `1`, `0`); empty is no. The only one that needs no due column.
    case suspended
  }

  /// Why a column list cannot be used.
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with it.
    public var description: String

    /// A problem described by `description`.
    public init(description: String) { self.description = description }
  }

  /// The role of each column, first column first.
  public var roles: [Role]

  /// A mapping with the given roles.
  ///
  /// - Throws: ``Problem`` when a role other than a field or a skipped column appears twice, or
  ///   when a scheduling column other than `suspended` is named without a `due` column.
  public init(roles: [Role]) throws {
    let meta = [Role.guid, .noteType, .deck, .tags] + SchedulingColumn.allCases.map { Role.scheduling($0) }
    for role in meta where roles.filter({ $0 == role }).count > 1 {
      throw Problem(description: "the \(Self.name(of: role)) column is named twice")
    }
    if let orphan = roles.first(where: { role in
      if case .scheduling(let part) = role { part != .suspended } else { false }
    }),
      !roles.contains(.scheduling(.due))
    {
      throw Problem(
        description:
          "the \(Self.name(of: orphan)) column needs a due column: a card's schedule starts with the day it is due")
    }
    self.roles = roles
  }

  /// A mapping whose roles are known to name each meta column at most once.
  init(checkedRoles roles: [Role]) { self.roles = roles }

  /// Parses a comma-separated list of column names.
  ///
  /// - Throws: ``Problem`` when the list is empty or names a meta column twice.
  public init(parsing text: String) throws {
    let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard names.contains(where: { !$0.trimmingASCIIWhitespace().isEmpty }) else {
      throw Problem(description: "no column is named; give names such as front,back,tags,deck")
    }
    try self.init(names: names)
  }

  /// A mapping from column names (a header row): each name's role as described above.
  ///
  /// - Throws: ``Problem`` when a meta column is named twice.
  public init(names: [String]) throws {
    try self.init(roles: names.map(Self.role(named:)))
  }

  /// The role a column name stands for.
  public static func role(named name: String) -> Role {
    let trimmed = name.trimmingASCIIWhitespace()
    switch trimmed.lowercased() {
    case "guid": return .guid
    case "notetype", "note type", "note-type", "note_type": return .noteType
    case "deck": return .deck
    case "tags": return .tags
    case "", "-": return .skipped
    case let lowered:
      if let part = SchedulingColumn(rawValue: lowered) { return .scheduling(part) }
      return .field(trimmed)
    }
  }

  /// The name a role is written as in a header row and in ``description``.
  public static func name(of role: Role) -> String {
    switch role {
    case .field(let name): name
    case .guid: "guid"
    case .noteType: "notetype"
    case .deck: "deck"
    case .tags: "tags"
    case .scheduling(let part): part.rawValue
    case .skipped: "-"
    }
  }

  /// The 0-based column of each scheduling column named.
  public var schedulingColumns: [SchedulingColumn: Int] {
    var columns: [SchedulingColumn: Int] = [:]
    for (index, role) in roles.enumerated() {
      if case .scheduling(let part) = role, columns[part] == nil { columns[part] = index }
    }
    return columns
  }

  /// The 0-based column of the first column with `role`, if any.
  public func column(of role: Role) -> Int? { roles.firstIndex(of: role) }

  /// The columns that name fields, with the names, in column order.
  public var fieldColumns: [(column: Int, name: String)] {
    roles.enumerated().compactMap { index, role in
      if case .field(let name) = role { return (index, name) }
      return nil
    }
  }

  /// The list as it would be given to `--columns`.
  public var description: String { roles.map(Self.name(of:)).joined(separator: ",") }

  /// For each field column (in ``fieldColumns`` order), the index of the field it holds among
  /// `fieldNames`: by name (see ``fieldIndex(named:in:)``), or, when no name matches any
  /// field, by position (the first field column holds the first field, and so on).
  public func fieldTargets(in fieldNames: [String]) -> [Int?] {
    let names = fieldColumns.map(\.name)
    let byName = names.map { Self.fieldIndex(named: $0, in: fieldNames) }
    if byName.contains(where: { $0 != nil }) { return byName }
    return names.indices.map { $0 < fieldNames.count ? $0 : nil }
  }

  /// The index of the field a column name stands for among `fieldNames`: the field of that
  /// name ignoring case, else the first field for `front` and the second for `back`.
  public static func fieldIndex(named name: String, in fieldNames: [String]) -> Int? {
    if let exact = fieldNames.firstIndex(of: name) { return exact }
    let folded = name.lowercased()
    if let index = fieldNames.firstIndex(where: { $0.lowercased() == folded }) { return index }
    switch folded {
    case "front" where !fieldNames.isEmpty: return 0
    case "back" where fieldNames.count > 1: return 1
    default: return nil
    }
  }
}
