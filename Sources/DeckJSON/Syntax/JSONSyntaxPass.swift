import DeckCore
import Foundation
import JSONCore

/// One pass over a JSON document's bytes that checks its syntax (reporting line and column) and
/// sets aside the long string values of `data` keys, which hold base64 media: the document is
/// copied without them, each replaced by a short placeholder, so decoding the rest never holds
/// the media, and each media file is later decoded straight from its place in the file.
///
/// The arrays of the top-level keys named in `splitting` (a deck's `notes`, `cards` and
/// `reviews`) are not copied either: the copy has `[]` in their place, and the pass records
/// where each element is in the file, so the reader decodes them one at a time (most of them
/// are decoded during the pass itself: see ``init(bytes:location:splitting:reached:settingAside:decodingElement:decodedAhead:skimmingElement:takingDeclaredLengths:)``). A key that
/// occurs twice, or an element holding text that is not UTF-8, makes ``canSplit`` false: the
/// reader then decodes the whole document at once, as JSON decoders judge such documents as a
/// whole.
///
/// Its grammar pieces (white space, numbers, escapes, UTF-8, plain string runs) and its errors
/// are the JSON core's (``JSONBytes``, ``JSONSyntaxError``), as ``JSONParser`` uses them.
struct JSONSyntaxPass {
  /// A string value left in the file: where its content starts and how many bytes it has.
  struct SetAside: Equatable {
    var offset: Int
    var length: Int
    /// Whether its length was taken from the `size` its object declares, its text not read:
    /// the text must still be checked (``isPlainText(_:)``).
    var lengthDeclared = false
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

  /// Whether `text`, a set-aside string's content whose length was declared, is what the pass
  /// would have read as that string: printable ASCII without quote or backslash (all base64 is).
  /// Anything else, even a string JSON allows, makes the reader read the document again without
  /// taking declared lengths.
  static func isPlainText(_ text: UnsafeRawBufferPointer) -> Bool {
    JSONBytes.plainRunEnd(text, from: 0) == text.count
  }

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
  /// Whether a `data` string's length is taken from its object's `size`, without reading it.
  private let takesDeclaredLengths: Bool
  /// Where the innermost object being read starts.
  private var currentObject = -1
  /// The `size` declared in an object (by where the object starts), the last one read.
  private var declaredSize: (object: Int, bytes: Int)?
  private static let maximumDepth = 512
  /// The keys whose top-level arrays are split, as bytes.
  private let splitting: [[UInt8]]
  /// Whether output to `reduced` is suspended (inside a split array).
  private var suspended = false
  /// Called with the offset reached, every few megabytes, so the caller can report progress
  /// and let go of the pages behind; what it throws ends the pass (such as `CancellationError`).
  private let reached: ((Int) throws -> Void)?
  /// Called with each string set aside, as it is found.
  private let settingAside: ((SetAside) -> Void)?
  /// Decodes an element of a split array in place of the pass, when it can (see the initializer).
  private let decodingElement: ((_ key: Int, _ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int?)?
  /// Gives the elements of a split array decoded elsewhere from a start on (see the initializer).
  private let decodedAhead: ((_ key: Int, _ start: Int) -> [Range<Int>]?)?
  /// Says whether an element the pass is to check may only be stepped over (see the initializer).
  private let skimmingElement: ((_ key: Int) -> Bool)?
  private var nextReport = 0
  private static let reportStep = 8 << 20

  /// Checks `bytes` and builds the reduced document, calling `settingAside` with each string it
  /// sets aside (in order: the first is number 0) as soon as it has checked it.
  ///
  /// Each element of a split array is first offered to `decodingElement`, with the place of its
  /// key in `splitting`, the bytes and the element's start: it returns where the element ends
  /// when it has decoded it, having checked it as strictly as this pass would (or nil, and this
  /// pass checks the element). An element is thus read once, not checked here and decoded later.
  /// Before that, `decodedAhead` is asked, with the same key and start, for elements decoded
  /// elsewhere from there on, as strictly: the pass then takes their ranges as its elements and
  /// goes on after the last. An element neither gives is checked here, unless
  /// `skimmingElement`, asked with its key, says the caller checks it later (by decoding it as
  /// strictly as this pass checks): the pass then only finds where it ends, by its structure
  /// (``JSONBytes/structuralEnd(_:from:acceptingEscapes:)``). Such a caller must not keep
  /// anything read, nor report any problem, before it has checked every element so passed over:
  /// a problem in one of them comes first in the document.
  ///
  /// - Throws: ``DeckError`` at the line and column of the first syntax error, with the text
  ///   there, and whatever `reached` throws.
  init(
    bytes: UnsafeRawBufferPointer, location: SourceLocation, splitting: [String] = [],
    reached: ((Int) throws -> Void)? = nil, settingAside: ((SetAside) -> Void)? = nil,
    decodingElement: ((_ key: Int, _ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int?)? = nil,
    decodedAhead: ((_ key: Int, _ start: Int) -> [Range<Int>]?)? = nil,
    skimmingElement: ((_ key: Int) -> Bool)? = nil, takingDeclaredLengths: Bool = false
  ) throws {
    self.takesDeclaredLengths = takingDeclaredLengths
    self.bytes = bytes
    self.location = location
    self.splitting = splitting.map { Array($0.utf8) }
    self.reached = reached
    self.settingAside = settingAside
    self.decodingElement = decodingElement
    self.decodedAhead = decodedAhead
    self.skimmingElement = skimmingElement
    self.placeholderPrefix = "\u{0}" + UUID().uuidString + ":"
    reduced.reserveCapacity(min(bytes.count, splitting.isEmpty ? 1 << 24 : 1 << 20))
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte order mark
    do {
      skipWhitespace()
      try value()
      skipWhitespace()
      if index < bytes.count { throw error(.textAfterValue) }
    } catch let error as JSONSyntaxError {
      var place = location
      place.line = error.line
      place.column = error.column
      throw DeckError(.wrongFormat, at: place, "invalid JSON: \(error.message) (\(error.near))")
    }
    try reached?(bytes.count)
  }

  /// The placeholder text for set-aside string `number`.
  func placeholder(_ number: Int) -> String { placeholderPrefix + String(number) }

  /// The set-aside string a placeholder stands for, and its number, if `text` is one.
  func setAsideString(for text: String) -> (string: SetAside, number: Int)? {
    guard text.hasPrefix(placeholderPrefix), let number = Int(text.dropFirst(placeholderPrefix.count)),
      setAside.indices.contains(number)
    else { return nil }
    return (setAside[number], number)
  }

  // MARK: - Grammar

  private mutating func value() throws {
    guard index < bytes.count else { throw error(.endWhereValueShouldBe) }
    try reportIfDue()
    // An array under a split key of the top-level object.
    if depth == 1, !suspended, bytes[index] == UInt8(ascii: "["), let key = splitting.firstIndex(where: lastKeyIs) {
      return try splitArray(key: key)
    }
    switch bytes[index] {
    case UInt8(ascii: "{"): try object()
    case UInt8(ascii: "["): try array()
    case UInt8(ascii: "\""): try string(isKey: false)
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
    default: throw error(.expectedValue)
    }
  }

  private mutating func object() throws {
    let outer = currentObject
    currentObject = index
    defer { currentObject = outer }
    try list(closing: UInt8(ascii: "}"), orElse: .expectedCommaOrBrace) {
      guard $0.peek(UInt8(ascii: "\"")) else { throw $0.error(.expectedKey) }
      try $0.string(isKey: true)
      $0.skipWhitespace()
      guard $0.peek(UInt8(ascii: ":")) else { throw $0.error(.expectedColon) }
      $0.copy(1)
      $0.skipWhitespace()
      try $0.value()
    }
  }

  private mutating func array() throws {
    try list(closing: UInt8(ascii: "]"), orElse: .expectedCommaOrBracket) { try $0.value() }
  }

  /// Tells `reached` the offset when it has come a report step further.
  private mutating func reportIfDue() throws {
    if index >= nextReport, let reached {
      try reached(index)
      nextReport = index + Self.reportStep
    }
  }

  /// A split array, under `splitting[keyNumber]`: `[]` in the reduced document, each element
  /// decoded (or checked) and its place recorded.
  private mutating func splitArray(key keyNumber: Int) throws {
    let key = String(decoding: splitting[keyNumber], as: UTF8.self)
    if elements[key] != nil { canSplit = false }  // the key occurs twice
    var found = Elements()
    append(index..<(index + 1))
    suspended = true
    try list(closing: UInt8(ascii: "]"), orElse: .expectedCommaOrBracket) { pass in
      let start = pass.index
      if let ranges = pass.decodedAhead?(keyNumber, start), let last = ranges.last {
        for range in ranges {
          found.offsets.append(range.lowerBound)
          found.lengths.append(Int32(clamping: range.count))
          if range.count > Int(Int32.max) { pass.canSplit = false }
        }
        pass.index = last.upperBound
        try pass.reportIfDue()
        return
      }
      if let end = pass.decodingElement?(keyNumber, pass.bytes, start)
        ?? pass.skimmed(keyNumber, from: start)
      {
        pass.index = end
        try pass.reportIfDue()
      } else {
        try pass.value()
      }
      found.offsets.append(start)
      found.lengths.append(Int32(clamping: pass.index - start))
      if pass.index - start > Int(Int32.max) { pass.canSplit = false }
    }
    suspended = false
    append((index - 1)..<index)
    elements[key] = found
  }

  /// Where the element of split array `key` starting at `start` ends, found by its structure
  /// alone, when `skimmingElement` lets the pass leave its check to the caller; else nil.
  private func skimmed(_ key: Int, from start: Int) -> Int? {
    guard skimmingElement?(key) == true else { return nil }
    return JSONBytes.structuralEnd(bytes, from: start, acceptingEscapes: true)
  }

  /// An object or array: the opening byte, elements separated by commas, the closing byte.
  private mutating func list(
    closing close: UInt8, orElse problem: JSONSyntaxProblem, element: (inout JSONSyntaxPass) throws -> Void
  ) throws {
    try enter()
    copy(1)
    skipWhitespace()
    if peek(close) {
      copy(1)
      depth -= 1
      return
    }
    while true {
      try element(&self)
      let (next, ends) = try JSONBytes.scanListContinuation(bytes, from: index, closing: close, orElse: problem)
      append(index..<next)
      index = next
      if ends {
        depth -= 1
        return
      }
    }
  }

  private mutating func enter() throws {
    depth += 1
    if depth > Self.maximumDepth { throw error(.tooDeep(limit: Self.maximumDepth)) }
  }

  private mutating func string(isKey: Bool) throws {
    if !isKey, takesDeclaredLengths, takeDeclaredLength() { return }
    let start = index
    index += 1
    var hasEscape = false
    while true {
      // Plain text is skipped fast: most of a document (base64 media above all) is string content.
      let found = try JSONBytes.scanStringText(bytes, from: index, openingQuote: start)
      index = found.stop
      if found.isQuote { break }
      // An escape: checked here, decoded (surrogates paired) by the decoder.
      hasEscape = true
      index = try JSONBytes.scanEscape(bytes, at: index, openingQuote: start).next
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
      putAside(SetAside(offset: contentStart, length: contentLength))
    } else {
      append(start..<index)
    }
  }

  private mutating func number() throws {
    let end = try JSONBytes.scanNumber(bytes, from: index).end
    if takesDeclaredLengths, !suspended, end - index <= 15, lastKeyIs(Self.sizeKey),
      bytes[index..<end].allSatisfy(JSONBytes.isDigit)
    {
      declaredSize = (currentObject, bytes[index..<end].reduce(0) { $0 * 10 + Int($1 - 0x30) })
    }
    append(index..<end)
    index = end
  }

  /// Sets aside the `data` string here unread when its object declared a `size` before it and a
  /// quote stands where base64 text of that size ends (``SetAside/lengthDeclared``); false,
  /// having done nothing, otherwise.
  private mutating func takeDeclaredLength() -> Bool {
    guard !suspended, let declared = declaredSize, declared.object == currentObject, lastKeyIs(Self.dataKey)
    else { return false }
    let length = (declared.bytes + 2) / 3 * 4
    let end = index + 1 + length
    guard length >= Self.setAsideThreshold, end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return false }
    putAside(SetAside(offset: index + 1, length: length, lengthDeclared: true))
    index = end + 1
    return true
  }

  /// Puts the placeholder of `string` in the reduced document and records it.
  private mutating func putAside(_ string: SetAside) {
    reduced.append(contentsOf: Array("\"".utf8))
    reduced.append(contentsOf: Array("\\u0000".utf8))
    reduced.append(contentsOf: Array(placeholder(setAside.count).dropFirst().utf8))
    reduced.append(UInt8(ascii: "\""))
    setAside.append(string)
    settingAside?(string)
  }

  private mutating func literal(_ word: StaticString) throws {
    guard JSONBytes.hasWord(word, in: bytes, at: index) else { throw error(.expectedValue) }
    copy(word.utf8CodeUnitCount)
  }

  // MARK: - Bytes

  private static let dataKey = Array("data".utf8)
  private static let sizeKey = Array("size".utf8)

  /// Whether the most recent key is `key`.
  private func lastKeyIs(_ key: [UInt8]) -> Bool {
    lastKey.count == key.count && bytes[lastKey].elementsEqual(key)
  }

  private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

  private mutating func skipWhitespace() {
    let start = index
    index = JSONBytes.whitespaceEnd(bytes, from: index)
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

  /// A syntax error at the current byte (``init(bytes:location:splitting:reached:)`` turns it
  /// into a ``DeckError`` at its line and column, with the text there).
  private func error(_ problem: JSONSyntaxProblem) -> JSONSyntaxError {
    JSONSyntaxError(problem, at: index, in: bytes)
  }
}
