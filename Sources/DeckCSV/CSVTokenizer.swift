import DeckCore
import DeckIO
import Foundation

/// Splits the bytes of a CSV or TSV file into header lines and records, exactly as Anki's
/// importer does, keeping the line and column where each field starts.
///
/// It reads its source in chunks, so a file of any size needs only one record in memory. The
/// rules are those of the Rust `csv` reader Anki configures (`flexible`, comment `#`):
///
/// * a UTF-8 byte order mark at the start of the file is skipped;
/// * a record ends at `\r\n`, `\n` or `\r`; empty lines are skipped;
/// * a line that starts with `#` where a record would start is a comment and skipped (unless
///   ``skipsCommentLines`` is off: a spreadsheet's cell may start with `#`), and counted in
///   ``skippedRows``: between records it may as well be a row whose first cell starts with `#`;
/// * a field that starts with `"` is quoted: separators and line breaks inside it are kept,
///   `""` is one `"`, and text after the closing quote is appended as it is (`"ab"cd` is
///   `abcd`); a `"` inside an unquoted field is an ordinary character;
/// * rows may have different numbers of fields.
///
/// Unlike Anki, a quoted field that runs to the end of the file is an error, and so are bytes
/// that are not UTF-8; both name the line and column.
///
/// ```swift
/// var tokenizer = CSVTokenizer(source: try FileByteSource(path: path, location: place), location: place)
/// let header = try tokenizer.readHeaderLines()
/// while let record = try tokenizer.nextRecord(separator: .tab) { print(record.values) }
/// ```
package struct CSVTokenizer {
  /// One field of a record.
  package struct Field: Sendable, Equatable {
    /// The field's text, quotes removed.
    package var text: String
    /// The 1-based line where the field starts.
    package var line: Int
    /// The 1-based column (in characters) where the field starts.
    package var column: Int
  }

  /// One record (row): its fields, and the line where it starts.
  package struct Record: Sendable, Equatable {
    /// The fields, in order; never empty.
    package var fields: [Field]
    /// The 1-based line where the record starts.
    package var line: Int

    /// The text of each field.
    package var values: [String] { fields.map(\.text) }
  }

  /// A line of the header: a `#key:value` directive, a `#` comment, or the legacy `tags:` line.
  package struct HeaderLine: Sendable, Equatable {
    /// The line's text, without its line break.
    package var text: String
    /// The 1-based line number.
    package var number: Int
  }

  /// Whether a line that starts with `#` where a record would start is a comment and skipped, as
  /// Anki's importer skips it (the default), or a record, as a spreadsheet reads it.
  package var skipsCommentLines = true
  /// The comment lines skipped so far by ``nextRecord(separator:)`` (not the header's).
  package private(set) var skippedRows = CSVLineSample()
  /// The first of the header's lines that ends with a carriage return alone (classic Mac OS line
  /// ends) before more text: Anki's importer reads a header line up to a line feed only, so it
  /// takes that text (`#` lines, rows) for part of the line. Carriage returns before a line
  /// feed (`\r\r\n`) are one line end, as to Anki.
  package private(set) var headerLineJoinedByLoneCarriageReturn: Int?

  private var source: any ByteSource
  private let location: SourceLocation
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var sourceIsExhausted = false
  private var atFileStart = true
  private var position = CSVTextPosition()
  private var scratch: [UInt8] = []
  /// Offsets in `scratch` where a doubled quote became one, to map an offset back to a column.
  private var collapsedQuotes: [Int] = []

  private static let chunkSize = 1 << 16
  private static let quote = UInt8(ascii: "\"")
  private static let hash = UInt8(ascii: "#")
  private static let lineFeed = CSVTextPosition.lineFeed
  private static let carriageReturn = CSVTextPosition.carriageReturn

  /// Creates a tokenizer over `source`; errors name `location` with a line and column.
  package init(source: any ByteSource, location: SourceLocation) {
    self.source = source
    self.location = location
    self.buffer = [UInt8](repeating: 0, count: Self.chunkSize)
    scratch.reserveCapacity(1024)
  }

  /// A tokenizer over bytes in memory.
  package init(data: Data, location: SourceLocation) {
    self.init(source: DataByteSource(data), location: location)
  }

  // MARK: - Header

  /// Reads the header: the legacy `tags:` line if it is the first, then every line that starts
  /// with `#`, up to the first line that does not, or that `startsRows` says is a row (given the
  /// text of a `#` line, not yet read). Call it before the first ``nextRecord(separator:)``.
  ///
  /// - Throws: ``DeckError`` when a header line is not UTF-8 or the source cannot be read.
  package mutating func readHeaderLines(
    startsRows: ((_ line: String) -> Bool)? = nil
  ) throws -> [HeaderLine] {
    try skipByteOrderMark()
    var lines: [HeaderLine] = []
    var isFirst = true
    while let byte = try peekByte() {
      var isLegacyTags = false
      if isFirst { isLegacyTags = try peekBytes(maximum: 5) == Array("tags:".utf8) }
      guard byte == Self.hash || isLegacyTags else { break }
      if !isLegacyTags, let startsRows, startsRows(String(decoding: try peekLine(), as: UTF8.self)) { break }
      let number = position.line
      scratch.removeAll(keepingCapacity: true)
      collapsedQuotes.removeAll()
      let startColumn = position.column
      while let next = try peekByte(), next != Self.lineFeed, next != Self.carriageReturn {
        consume(next)
        scratch.append(next)
      }
      if try consumeLineBreak() == .loneCarriageReturn, headerLineJoinedByLoneCarriageReturn == nil {
        headerLineJoinedByLoneCarriageReturn = number
      }
      lines.append(
        HeaderLine(text: try decodeScratch(line: number, column: startColumn, isQuoted: false), number: number))
      isFirst = false
    }
    return lines
  }

  /// The bytes of the line at the read position, up to its line break, without consuming them.
  private mutating func peekLine() throws -> ArraySlice<UInt8> {
    var length = 0
    while true {
      if start + length == end {
        try fill(atLeast: length + Self.chunkSize)
        if start + length == end { break }
      }
      let byte = buffer[start + length]
      if byte == Self.lineFeed || byte == Self.carriageReturn { break }
      length += 1
    }
    return buffer[start..<(start + length)]
  }

  /// Up to `maximum` of the next bytes, without consuming them (Anki detects the separator in
  /// the first 8 KiB after the header).
  package mutating func peekBytes(maximum: Int) throws -> [UInt8] {
    try skipByteOrderMark()
    try fill(atLeast: maximum)
    return Array(buffer[start..<min(end, start + maximum)])
  }

  // MARK: - Records

  /// The next record, or nil at the end of the file.
  ///
  /// - Throws: ``DeckError`` (``DeckError/Kind/wrongFormat``) at the opening quote of a quoted
  ///   field that has no closing quote, or at the first byte that is not UTF-8; or when the
  ///   source cannot be read.
  package mutating func nextRecord(separator: CSVSeparator) throws -> Record? {
    try skipByteOrderMark()
    // Empty lines and comment lines where a record would start.
    while let byte = try peekByte() {
      if byte == Self.lineFeed || byte == Self.carriageReturn {
        consume(byte)
      } else if byte == Self.hash && skipsCommentLines {
        skippedRows.add(position.line)
        while let next = try peekByte(), next != Self.lineFeed, next != Self.carriageReturn { consume(next) }
      } else {
        break
      }
    }
    guard try peekByte() != nil else { return nil }
    let recordLine = position.line
    var fields: [Field] = []
    while true {
      let fieldLine = position.line
      let fieldColumn = position.column
      scratch.removeAll(keepingCapacity: true)
      collapsedQuotes.removeAll()
      var isQuoted = false
      if try peekByte() == Self.quote {
        isQuoted = true
        consume(Self.quote)
        try readQuotedPart(openedAt: fieldLine, fieldColumn)
      }
      let stop = try scanUnquoted(separator: separator.byte)
      fields.append(
        Field(
          text: try decodeScratch(line: fieldLine, column: fieldColumn, isQuoted: isQuoted), line: fieldLine,
          column: fieldColumn))
      guard let stop else { break }
      consume(stop)
      if stop == separator.byte { continue }
      if stop == Self.carriageReturn, try peekByte() == Self.lineFeed { consume(Self.lineFeed) }
      break
    }
    return Record(fields: fields, line: recordLine)
  }

  /// Reads a quoted field's content after its opening quote, up to and including the closing
  /// quote, turning `""` into `"`.
  private mutating func readQuotedPart(openedAt fieldLine: Int, _ fieldColumn: Int) throws {
    while true {
      guard try scanQuoted() else {
        let excerpt = CSVExcerpt.shortened("\"" + String(decoding: scratch, as: UTF8.self))
        throw DeckError(
          .wrongFormat, at: place(fieldLine, fieldColumn),
          "unterminated quote: the quoted field that starts here has no closing quote before the end of the file (near '\(excerpt)')"
        )
      }
      consume(Self.quote)
      guard try peekByte() == Self.quote else { return }
      consume(Self.quote)
      collapsedQuotes.append(scratch.count)
      scratch.append(Self.quote)
    }
  }

  /// Appends bytes to `scratch` up to the next `"`; false at the end of the file.
  private mutating func scanQuoted() throws -> Bool {
    try scan(upTo: { $0 == Self.quote }) != nil
  }

  /// Appends bytes to `scratch` up to the next separator or line break, which is returned
  /// without being consumed; nil at the end of the file.
  private mutating func scanUnquoted(separator: UInt8) throws -> UInt8? {
    try scan(upTo: { $0 == separator || $0 == Self.lineFeed || $0 == Self.carriageReturn })
  }

  /// Appends bytes to `scratch` up to the first byte for which `isStop` is true, which is
  /// returned without being consumed; nil at the end of the file.
  @inline(__always)
  private mutating func scan(upTo isStop: (UInt8) -> Bool) throws -> UInt8? {
    while true {
      if start == end {
        guard try refill() else { return nil }
      }
      let runStart = start
      let limit = end
      let found: Int? = buffer.withUnsafeBufferPointer { bytes in
        var index = runStart
        while index < limit {
          if isStop(bytes[index]) { return index }
          index += 1
        }
        return nil
      }
      let runEnd = found ?? limit
      account(runStart, runEnd)
      scratch.append(contentsOf: buffer[runStart..<runEnd])
      start = runEnd
      if let found { return buffer[found] }
    }
  }

  // MARK: - Decoding

  /// `scratch` as a string, or an error at the first byte that is not UTF-8.
  private func decodeScratch(line fieldLine: Int, column fieldColumn: Int, isQuoted: Bool) throws -> String {
    guard let bad = UTF8Validation.firstInvalidOffset(in: scratch) else {
      return String(decoding: scratch, as: UTF8.self)
    }
    // Walk the field's bytes up to the bad one to find its line and column; a quoted field's
    // content starts one column later, and each collapsed `""` took one more column.
    var badPosition = CSVTextPosition(line: fieldLine, column: fieldColumn + (isQuoted ? 1 : 0))
    var collapsed = collapsedQuotes[...]
    for offset in 0..<bad {
      while let next = collapsed.first, next == offset {
        badPosition.column += 1
        collapsed = collapsed.dropFirst()
      }
      badPosition.advance(past: scratch[offset])
    }
    let (badLine, badColumn) = (badPosition.line, badPosition.column)
    let lineStart =
      scratch[..<bad].lastIndex(where: { $0 == Self.lineFeed || $0 == Self.carriageReturn }).map { $0 + 1 } ?? 0
    let excerpt = CSVExcerpt.shortened(
      String(decoding: scratch[lineStart...], as: UTF8.self), keepingStart: bad - lineStart)
    let hex = String(scratch[bad], radix: 16, uppercase: true)
    if badLine == 1, badColumn == 1, scratch.starts(with: [0xFF, 0xFE]) || scratch.starts(with: [0xFE, 0xFF]) {
      throw DeckError(
        .wrongFormat, at: place(1, 1),
        "not UTF-8: the file starts with the byte order mark of UTF-16 (0x\(hex) 0x\(String(scratch[1], radix: 16, uppercase: true))); deckport reads CSV and TSV files as UTF-8, so save the file as UTF-8"
      )
    }
    throw DeckError(
      .wrongFormat, at: place(badLine, badColumn),
      "not UTF-8: byte 0x\(hex) is not part of a valid character; deckport reads CSV and TSV files as UTF-8, so save the file as UTF-8 (near '\(excerpt)')"
    )
  }

  private func place(_ line: Int, _ column: Int) -> SourceLocation {
    var place = location
    place.line = line
    place.column = column
    return place
  }

  // MARK: - Bytes and positions

  private mutating func skipByteOrderMark() throws {
    guard atFileStart else { return }
    atFileStart = false
    try fill(atLeast: 3)
    if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
      start += 3
    }
  }

  private mutating func peekByte() throws -> UInt8? {
    if start == end {
      guard try refill() else { return nil }
    }
    return buffer[start]
  }

  /// Consumes the byte at the read position, which the caller has peeked as `byte`.
  private mutating func consume(_ byte: UInt8) {
    start += 1
    position.advance(past: byte)
  }

  /// A line's end: `\n` (or `\r\n`), a carriage return alone before more text, or none (the
  /// end of the text).
  private enum LineBreak { case lineFeed, loneCarriageReturn, none }

  @discardableResult
  private mutating func consumeLineBreak() throws -> LineBreak {
    guard let byte = try peekByte() else { return .none }
    if byte == Self.carriageReturn {
      // A run of carriage returns ends the line with the line feed after it, as Anki's import
      // reads a header line (`\r\r\n` is one line end); before anything else, it is a line
      // end only to deckport.
      consume(byte)
      while try peekByte() == Self.carriageReturn { consume(Self.carriageReturn) }
      switch try peekByte() {
      case Self.lineFeed:
        consume(Self.lineFeed)
        return .lineFeed
      case nil: return .lineFeed
      default: return .loneCarriageReturn
      }
    } else if byte == Self.lineFeed {
      consume(byte)
      return .lineFeed
    }
    return .none
  }

  /// Moves the line and column past the buffered bytes `from..<to`.
  private mutating func account(_ from: Int, _ to: Int) {
    guard from < to else { return }
    var position = self.position
    buffer.withUnsafeBufferPointer { bytes in
      for index in from..<to { position.advance(past: bytes[index]) }
    }
    self.position = position
  }

  /// Reads the next chunk when the buffer is used up; false at the end of the source.
  private mutating func refill() throws -> Bool {
    if start < end { return true }
    start = 0
    end = 0
    try fill(atLeast: 1)
    return end > start
  }

  /// Reads until at least `count` bytes are buffered after the read position, or the source ends.
  private mutating func fill(atLeast count: Int) throws {
    while end - start < count, !sourceIsExhausted {
      if start > 0 {
        let remaining = end - start
        if remaining > 0 {
          buffer.withUnsafeMutableBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            base.update(from: base + start, count: remaining)
          }
        }
        start = 0
        end = remaining
      }
      if buffer.count - end < Self.chunkSize / 2 || buffer.count < count {
        buffer.append(contentsOf: repeatElement(0, count: max(Self.chunkSize, count)))
      }
      let capacity = buffer.count
      let filled = end
      let read = try buffer.withUnsafeMutableBytes { raw in
        try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled..<capacity]))
      }
      if read == 0 {
        sourceIsExhausted = true
      } else {
        end += read
      }
    }
  }
}
