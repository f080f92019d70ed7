/// Where in an input a problem was found: the file, and as much of the position inside it as
/// the reader knows (zip member, table and row, line and column, byte offset, JSON path, key).
///
/// Its `description` is the prefix of every error message, for example
/// `deck.apkg: member 'collection.anki21': table notes, row 1700000000000`, with the control and
/// bidirectional characters a file name or member name may hold shown as ``TerminalText`` shows
/// them; ``exactDescription`` keeps them.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  /// The path of the file as the user named it.
  public var file: String
  /// A zip member inside the file.
  public var member: String?
  /// An SQLite table.
  public var table: String?
  /// The row id inside `table`.
  public var row: Int64?
  /// A 1-based line in a text file.
  public var line: Int?
  /// A 1-based column in a text file.
  public var column: Int?
  /// A byte offset in a binary stream.
  public var byteOffset: Int64?
  /// A JSON path such as `notes[3].fields`.
  public var jsonPath: String?
  /// A named item inside the place above: a protobuf field, a plist key, a JSON key of a column.
  public var item: String?

  /// Creates a location in `file`; refine it with the `with…` methods.
  public init(
    file: String, member: String? = nil, table: String? = nil, row: Int64? = nil,
    line: Int? = nil, column: Int? = nil, byteOffset: Int64? = nil, jsonPath: String? = nil,
    item: String? = nil
  ) {
    self.file = file
    self.member = member
    self.table = table
    self.row = row
    self.line = line
    self.column = column
    self.byteOffset = byteOffset
    self.jsonPath = jsonPath
    self.item = item
  }

  /// This location narrowed to a zip member.
  public func member(_ name: String) -> SourceLocation { narrowed(\.member, to: name) }

  /// This location narrowed to a table, and optionally a row in it.
  public func table(_ name: String, row: Int64? = nil) -> SourceLocation {
    narrowed(\.table, to: name).narrowed(\.row, to: row)
  }

  /// This location narrowed to a named item (a column, a JSON key, a protobuf field).
  public func item(_ name: String) -> SourceLocation { narrowed(\.item, to: name) }

  /// This location narrowed to a part of its named item: `record type 'Card'` becomes
  /// `record type 'Card', key 'id'`; the part alone where the location names no item.
  public func itemPart(_ name: String) -> SourceLocation { narrowed(\.item, to: item.map { "\($0), \(name)" } ?? name) }

  /// This location narrowed to a JSON path, such as `notes[3].fields`.
  public func atJSONPath(_ path: String) -> SourceLocation { narrowed(\.jsonPath, to: path) }

  /// This location narrowed to a byte offset.
  public func offset(_ offset: Int64) -> SourceLocation { narrowed(\.byteOffset, to: offset) }

  /// This location with `value` in the part `part`.
  private func narrowed<Value>(_ part: WritableKeyPath<SourceLocation, Value?>, to value: Value?) -> SourceLocation {
    var copy = self
    copy[keyPath: part] = value
    return copy
  }

  /// The location as one line, safe to print on a terminal.
  public var description: String { TerminalText.escaped(exactDescription) }

  /// The location as one line, every name exactly as the input holds it (for JSON output).
  public var exactDescription: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    var parts: [String] = []
    if let member { parts.append("member '\(member)'") }
    if let table {
      parts.append(row.map { "table \(table), row \($0)" } ?? "table \(table)")
    }
    if let jsonPath { parts.append("at \(jsonPath)") }
    if let item { parts.append(item) }
    if let byteOffset { parts.append("byte \(byteOffset)") }
    if !parts.isEmpty { text += ": " + parts.joined(separator: ": ") }
    return text
  }
}
