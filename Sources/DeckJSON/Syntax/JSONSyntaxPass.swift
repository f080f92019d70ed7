import DeckCore
import Foundation

/// One pass over a JSON document's bytes that checks its syntax (reporting line and column) and
/// sets aside the long string values of `data` keys, which hold base64 media: the document is
/// copied without them, each replaced by a short placeholder, so decoding the rest never holds
/// the media, and each media file is later decoded straight from its place in the file.
///
/// The arrays of the top-level keys named in `splitting` (a deck's `notes`, `cards` and
/// `reviews`) are not copied either: the copy has `[]` in their place, and the pass records
/// where each element is in the file, so the reader decodes them one at a time. A key that
/// occurs twice, or an element holding text that is not UTF-8, makes ``canSplit`` false: the
/// reader then decodes the whole document at once, as JSON decoders judge such documents as a
/// whole.
struct JSONSyntaxPass {
  /// A string value left in the file: where its content starts and how many bytes it has.
  struct SetAside: Equatable {
    var offset: Int
    var length: Int
  }

  /// The elements of a split array: where each starts in the file and how many bytes it has.
  struct Elements {
    var offsets: [Int] = []
    var lengths: [Int32] = []
    var count: Int { offsets.count }
    func range(_ index: Int) -> Range<Int> { offsets[index]..<(offsets[index] + Int(lengths[index])) }
  }

  /// Strings shorter than this are kept in the reduced document.
  static let setAsideThreshold = 4096

  /// The document with the set-aside strings replaced by placeholders.
  private(set) var reduced: [UInt8] = []
  /// The set-aside strings, by placeholder number.
  private(set) var setAside: [SetAside] = []
  /// The prefix of every placeholder (a NUL and a per-read nonce, which no real string has).
  let placeholderPrefix: String

  /// The elements of each split array, by key.
  private(set) var elements: [String: Elements] = [:]
  /// Whether the split arrays may be decoded element by element (see the type's summary).
  private(set) var canSplit = true

  private let bytes: UnsafeRawBufferPointer
  private let location: SourceLocation
  private var index = 0
  private var depth = 0
  /// Where the content of the most recent key is in `bytes`.
  private var lastKey: Range<Int> = 0..<0
  private static let maximumDepth = 512
  /// The keys whose top-level arrays are split, as bytes.
  private let splitting: [[UInt8]]
  /// Whether output to `reduced` is suspended (inside a split array).
  private var suspended = false
  /// Called with the offset reached, every few megabytes, so the caller can report progress
  /// and let go of the pages behind.
  private let reached: ((Int) -> Void)?
  private var nextReport = 0
  private static let reportStep = 8 << 20

  /// Checks `bytes` and builds the reduced document.
  ///
  /// - Throws: ``DeckError`` at the line and column of the first syntax error, with the text there.
  init(
    bytes: UnsafeRawBufferPointer, location: SourceLocation, splitting: [String] = [],
    reached: ((Int) -> Void)? = nil
  ) throws {
    self.bytes = bytes
    self.location = location
    self.splitting = splitting.map { Array($0.utf8) }
    self.reached = reached
    self.placeholderPrefix = "\u{0}" + UUID().uuidString + ":"
    reduced.reserveCapacity(min(bytes.count, splitting.isEmpty ? 1 << 24 : 1 << 20))
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte order mark
    skipWhitespace()
    try value()
    skipWhitespace()
    if index < bytes.count { throw error("unexpected text after the end of the document") }
    reached?(bytes.count)
  }

  /// The placeholder text for set-aside string `number`.
  func placeholder(_ number: Int) -> String { placeholderPrefix + String(number) }

  /// The set-aside string a placeholder stands for, if `text` is one.
  func setAsideString(for text: String) -> SetAside? {
    guard text.hasPrefix(placeholderPrefix), let number = Int(text.dropFirst(placeholderPrefix.count)),
      setAside.indices.contains(number)
    else { return nil }
    return setAside[number]
  }

  // MARK: - Grammar

  private mutating func value() throws {
    guard index < bytes.count else { throw error("the document ends where a value should be") }
    if index >= nextReport, let reached {
      reached(index)
      nextReport = index + Self.reportStep
    }
    // An array under a split key of the top-level object.
    if depth == 1, !suspended, bytes[index] == UInt8(ascii: "["), let key = splitting.first(where: lastKeyIs) {
      return try splitArray(key: String(decoding: key, as: UTF8.self))
    }
    switch bytes[index] {
    case UInt8(ascii: "{"): try object()
    case UInt8(ascii: "["): try array()
    case UInt8(ascii: "\""): try string(isKey: false)
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
    default: throw error("expected a value (an object, array, string, number, true, false or null)")
    }
  }

  private mutating func object() throws {
    try list(closing: "}", afterElement: "after an object value") {
      guard $0.peek(UInt8(ascii: "\"")) else { throw $0.error("expected a key in double quotes") }
      try $0.string(isKey: true)
      $0.skipWhitespace()
      guard $0.peek(UInt8(ascii: ":")) else { throw $0.error("expected ':' after the key") }
      $0.copy(1)
      $0.skipWhitespace()
      try $0.value()
    }
  }

  private mutating func array() throws {
    try list(closing: "]", afterElement: "after an array element") { try $0.value() }
  }

  /// A split array: `[]` in the reduced document, each element checked and its place recorded.
  private mutating func splitArray(key: String) throws {
    if elements[key] != nil { canSplit = false }  // the key occurs twice
    var found = Elements()
    append(index..<(index + 1))
    suspended = true
    try list(closing: "]", afterElement: "after an array element") { pass in
      let start = pass.index
      try pass.value()
      found.offsets.append(start)
      found.lengths.append(Int32(clamping: pass.index - start))
      if pass.index - start > Int(Int32.max) { pass.canSplit = false }
    }
    suspended = false
    append((index - 1)..<index)
    elements[key] = found
  }

  /// An object or array: the opening byte, elements separated by commas, the closing byte.
  private mutating func list(
    closing: Unicode.Scalar, afterElement: String, element: (inout JSONSyntaxPass) throws -> Void
  ) throws {
    try enter()
    copy(1)
    skipWhitespace()
    let close = UInt8(ascii: closing)
    if peek(close) {
      copy(1)
      depth -= 1
      return
    }
    while true {
      try element(&self)
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        copy(1)
        skipWhitespace()
        continue
      }
      guard peek(close) else { throw error("expected ',' or '\(closing)' \(afterElement)") }
      copy(1)
      depth -= 1
      return
    }
  }

  private mutating func enter() throws {
    depth += 1
    if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep") }
  }

  private mutating func string(isKey: Bool) throws {
    let start = index
    index += 1
    var hasEscape = false
    while true {
      // Skip plain text fast: most of a document (base64 media above all) is string content.
      index = Self.plainRun(bytes, from: index)
      guard index < bytes.count else {
        index = start
        throw error("this string has no closing quote")
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { break }
      if byte < 0x20 { throw error("a control character must be escaped inside a string") }
      if byte >= 0x80 {
        let length = Self.utf8SequenceLength(bytes, at: index)
        guard length > 0 else {
          let hex = String(byte, radix: 16, uppercase: true)
          throw error("not UTF-8: byte 0x\(hex) in a string is not part of a valid character; a JSON document must be UTF-8")
        }
        index += length
        continue
      }
      if byte == UInt8(ascii: "\\") {
        hasEscape = true
        index += 1
        guard index < bytes.count else { continue }
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 1
        case UInt8(ascii: "u"):
          for offset in 1...4 {
            guard index + offset < bytes.count, isHexDigit(bytes[index + offset]) else {
              throw error("\\u must be followed by four hexadecimal digits")
            }
          }
          index += 5
        default: throw error("unknown escape sequence in a string")
        }
        continue
      }
      index += 1
    }
    let contentStart = start + 1
    let contentLength = index - contentStart
    index += 1
    if isKey {
      lastKey = contentStart..<(contentStart + contentLength)
      // A top-level key spelled with escapes could name a split array another way.
      if hasEscape && depth == 1 && !splitting.isEmpty { canSplit = false }
      append(start..<index)
    } else if !suspended, !hasEscape, contentLength >= Self.setAsideThreshold, lastKeyIs(Self.dataKey) {
      reduced.append(contentsOf: Array("\"".utf8))
      reduced.append(contentsOf: Array("\\u0000".utf8))
      reduced.append(contentsOf: Array(placeholder(setAside.count).dropFirst().utf8))
      reduced.append(UInt8(ascii: "\""))
      setAside.append(SetAside(offset: contentStart, length: contentLength))
    } else {
      append(start..<index)
    }
  }

  private mutating func number() throws {
    let start = index
    if peek(UInt8(ascii: "-")) { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if peek(UInt8(ascii: ".")) {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
      index += 1
      if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    append(start..<index)
  }

  private mutating func literal(_ word: StaticString) throws {
    let text = word.withUTF8Buffer { Array($0) }
    guard index + text.count <= bytes.count, bytes[index..<(index + text.count)].elementsEqual(text) else {
      throw error("expected a value (an object, array, string, number, true, false or null)")
    }
    copy(text.count)
  }

  // MARK: - Bytes

  private static let dataKey = Array("data".utf8)

  /// Whether the most recent key is `key`.
  private func lastKeyIs(_ key: [UInt8]) -> Bool {
    lastKey.count == key.count && bytes[lastKey].elementsEqual(key)
  }

  /// The offset of the first byte at or after `start` that is a quote, a backslash, a control
  /// character or not ASCII (or the end).
  private static func plainRun(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return start }
    var position = start
    let end = bytes.count
    // Eight bytes at a time: a word holds none of the bytes sought when no byte has its high
    // bit set, none is below 0x20, and none equals '"' or '\\' (the classic "has zero byte"
    // test on the word and on its XOR with each of those).
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let bytePointer = base.assumingMemoryBound(to: UInt8.self)
    while position &+ 8 <= end {
      let word = base.loadUnaligned(fromByteOffset: position, as: UInt64.self)
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let hasQuote = (quote &- ones) & ~quote
      let hasBackslash = (backslash &- ones) & ~backslash
      let hasControl = (word &- ones &* 0x20) & ~word
      if (word | hasQuote | hasBackslash | hasControl) & highs != 0 {
        // Something in this word (or a false alarm): look at its bytes one by one.
        for offset in 0..<8 {
          let byte = bytePointer[position &+ offset]
          if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { return position &+ offset }
        }
      }
      position &+= 8
    }
    while position < end {
      let byte = bytePointer[position]
      if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { return position }
      position &+= 1
    }
    return position
  }

  /// The length of the well-formed UTF-8 sequence starting at `offset` (2 to 4), or 0 when the
  /// bytes there are not one (a stray continuation byte, an overlong form, a surrogate, a value
  /// above U+10FFFF, or a sequence cut short).
  static func utf8SequenceLength(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    let lead = bytes[offset]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: return 0
    }
    guard offset + length <= bytes.count else { return 0 }
    let second = bytes[offset + 1]
    guard second >= low, second <= high else { return 0 }
    for next in 2..<length where bytes[offset + next] & 0xC0 != 0x80 { return 0 }
    return length
  }

  private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }
  private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  private func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
  }

  private mutating func skipWhitespace() {
    let start = index
    if let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) {
      var position = index
      let end = bytes.count
      while position < end {
        let byte = base[position]
        guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
        position &+= 1
      }
      index = position
    }
    if index > start { append(start..<index) }
  }

  private mutating func copy(_ count: Int) {
    append(index..<(index + count))
    index += count
  }

  private mutating func append(_ range: Range<Int>) {
    guard !suspended else { return }
    reduced.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
  }

  /// A syntax error at the current byte: line and column (counted in characters), and the
  /// text around it.
  private func error(_ message: String) -> DeckError {
    var line = 1
    var lineStart = 0
    for offset in 0..<min(index, bytes.count) where bytes[offset] == 0x0A {
      line += 1
      lineStart = offset + 1
    }
    let prefix = Data(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<min(index, bytes.count)]))
    let column = String(decoding: prefix, as: UTF8.self).count + 1
    var place = location
    place.line = line
    place.column = column
    let excerptEnd = min(bytes.count, index + 24)
    let excerpt = String(decoding: Data(UnsafeRawBufferPointer(rebasing: bytes[min(index, bytes.count)..<excerptEnd])), as: UTF8.self)
      .replacingOccurrences(of: "\n", with: "\\n")
    let near = index >= bytes.count ? "at the end of the file" : "near '\(excerpt)'"
    return DeckError(.wrongFormat, at: place, "invalid JSON: \(message) (\(near))")
  }
}
