import DeckIO
import Foundation
import JSONCore

extension AppValue {
  /// A value JSON cannot hold, with the path to it (`[3].score`).
  struct JSONUnrepresentable: Error {
    var path: String
    var message: String
  }

  /// The value as compact JSON text, the way `JSONEncoder` writes it with its defaults: keys in
  /// the record's order, `/` escaped as `\/`, non-ASCII as UTF-8, dates as `dates` says, UUIDs
  /// as uppercase strings, data as base64.
  ///
  /// Doubles keep a fraction or exponent (`1.0`), so reading the text back gives a double again.
  /// With `tagged`, dates, UUIDs, data and non-finite doubles are written in deckport's tagged
  /// form instead (`{"$date": 700000000.5}`), which ``init(taggedJSON:)`` turns back into the
  /// same typed values; deckport's SQLite schema stores nested values that way.
  ///
  /// - Throws: ``JSONUnrepresentable`` for a non-finite double (or date) when not `tagged`.
  func jsonData(dates: JSONDateEncoding = .secondsSince2001, tagged: Bool = false) throws(JSONUnrepresentable) -> Data {
    Data(try textInMemory(dates: dates, tagged: tagged, checking: false))
  }

  /// The value as ``jsonData(dates:tagged:)`` writes it (dates as seconds since 2001), except
  /// that a number JSON has no text for (a non-finite double or date) is the word `nan`, `inf`
  /// or `-inf`, as ``noteText`` gives such a number on its own: the text of an array or object in
  /// a note's field, which ``init(noteJSON:)`` reads back.
  var noteJSONText: String {
    var output = JSONValueOutput(dates: .secondsSince2001, tagged: false, sink: nil)
    output.nonFiniteWords = true
    // Without a sink and with non-finite numbers as words, nothing throws.
    try? output.write(self)
    return String(decoding: output.writer.bytes, as: UTF8.self)
  }

  /// Writes the text ``jsonData(dates:tagged:)`` makes into `sink`, in pieces of about 64 KiB:
  /// data values are encoded as they are written, so the text is never held whole.
  ///
  /// - Throws: ``JSONUnrepresentable`` as ``jsonData(dates:tagged:)`` does (after the text
  ///   before the value went to `sink`; ``checkJSON(dates:tagged:)`` finds it first), and what
  ///   `sink` throws.
  func writeJSON(dates: JSONDateEncoding, tagged: Bool = false, into sink: (UnsafeRawBufferPointer) throws -> Void)
    throws
  {
    try withoutActuallyEscaping(sink) { sink in
      var output = JSONValueOutput(dates: dates, tagged: tagged, sink: sink)
      try output.write(self)
      try output.flush()
    }
  }

  /// Throws what ``jsonData(dates:tagged:)`` would throw for this value, writing nothing.
  func checkJSON(dates: JSONDateEncoding, tagged: Bool = false) throws(JSONUnrepresentable) {
    _ = try textInMemory(dates: dates, tagged: tagged, checking: true)
  }

  /// The text, or nothing when `checking` (only the representability is checked).
  private func textInMemory(dates: JSONDateEncoding, tagged: Bool, checking: Bool) throws(JSONUnrepresentable)
    -> [UInt8]
  {
    var output = JSONValueOutput(dates: dates, tagged: tagged, sink: nil, checking: checking)
    do {
      try output.write(self)
    } catch let error as JSONUnrepresentable {
      throw error
    } catch {
      // Only a sink throws anything else, and this output has none.
      throw JSONUnrepresentable(path: "", message: "cannot write the JSON text (\(error))")
    }
    return output.writer.bytes
  }
}

/// Writes app values as JSON text (see ``AppValue/jsonData(dates:tagged:)``) into a
/// ``JSONWriter``'s buffer, handing it to a sink whenever it grows past a piece.
private struct JSONValueOutput {
  let dates: JSONDateEncoding
  let tagged: Bool
  let sink: ((UnsafeRawBufferPointer) throws -> Void)?
  /// Whether only the values' representability is checked: nothing is written, no data encoded.
  var checking = false
  /// Whether a number JSON has no text for is written as the word `nan`, `inf` or `-inf` (see
  /// ``AppValue/noteJSONText``) rather than refused.
  var nonFiniteWords = false
  var writer = JSONWriter(layout: .compact, escapesSlashes: true)
  /// The keys and positions down to the value being written, for errors.
  private var path: [PathStep] = []

  private enum PathStep {
    case key(String)
    case position(Int)
  }

  /// The size at which the buffer goes to the sink.
  private static let pieceBytes = 1 << 16

  init(
    dates: JSONDateEncoding, tagged: Bool, sink: ((UnsafeRawBufferPointer) throws -> Void)?, checking: Bool = false
  ) {
    self.dates = dates
    self.tagged = tagged
    self.sink = sink
    self.checking = checking
  }

  /// Hands what the buffer holds to the sink.
  mutating func flush() throws {
    guard let sink, !writer.bytes.isEmpty else { return }
    try writer.bytes.withUnsafeBytes { try sink($0) }
    writer.bytes.removeAll(keepingCapacity: true)
  }

  private mutating func flushIfFull() throws {
    if writer.bytes.count >= Self.pieceBytes { try flush() }
  }

  mutating func write(_ value: AppValue) throws {
    switch value {
    case .string(let text): writer.appendString(text)
    case .integer(let number): writer.appendNumber(number)
    case .double(let number):
      guard number.isFinite else {
        if nonFiniteWords { return writer.append(AppValue.nonFiniteText(of: number)) }
        guard tagged else { throw unrepresentable("JSON cannot hold the number \(number)") }
        return tag("$double") { $0.writer.appendString(number.isNaN ? "nan" : (number < 0 ? "-inf" : "inf")) }
      }
      writer.append(JSONWriter.text(of: number))
    case .bool(let flag): writer.append(flag ? "true" : "false")
    case .null: writer.append("null")
    case .date(let date):
      if tagged { return tag("$date") { $0.writer.append(JSONWriter.text(of: date.timeIntervalSinceReferenceDate)) } }
      let encoded = dates.encode(date)
      if case .double(let number) = encoded, !number.isFinite {
        if nonFiniteWords { return writer.append(AppValue.nonFiniteText(of: number)) }
        throw unrepresentable("JSON cannot hold the date \(date)")
      }
      try write(encoded)
    case .uuid(let uuid):
      if tagged { return tag("$uuid") { $0.writer.appendString(uuid.uuidString) } }
      writer.appendString(uuid.uuidString)
    case .data(let bytes):
      if tagged { return try tag("$data") { try $0.writeBase64(bytes) } }
      try writeBase64(bytes)
    case .array(let items):
      writer.append(byte: UInt8(ascii: "["))
      for (position, item) in items.enumerated() {
        if position > 0 { writer.append(byte: UInt8(ascii: ",")) }
        path.append(.position(position))
        try write(item)
        path.removeLast()
        try flushIfFull()
      }
      writer.append(byte: UInt8(ascii: "]"))
    case .object(let record):
      if tagged, record.count == 1, record.first?.key.hasPrefix("$") ?? false {
        return try tag("$object") { try $0.writeMembers(record) }
      }
      try writeMembers(record)
    }
    if checking { writer.bytes.removeAll(keepingCapacity: true) }
  }

  private mutating func writeMembers(_ record: AppRecord) throws {
    writer.append(byte: UInt8(ascii: "{"))
    for (position, field) in record.fields.enumerated() {
      if position > 0 { writer.append(byte: UInt8(ascii: ",")) }
      writer.appendKey(field.key, indent: 0)
      path.append(.key(field.key))
      try write(field.value)
      path.removeLast()
      try flushIfFull()
    }
    writer.append(byte: UInt8(ascii: "}"))
  }

  /// `{"key":` what `body` writes `}` (a tag or wrapper, not a step in the path).
  private mutating func tag(_ key: String, _ body: (inout JSONValueOutput) throws -> Void) rethrows {
    writer.append(byte: UInt8(ascii: "{"))
    writer.appendKey(key, indent: 0)
    try body(&self)
    writer.append(byte: UInt8(ascii: "}"))
  }

  /// `bytes` as a JSON string of base64 text, its slashes escaped, encoded a piece at a time.
  private mutating func writeBase64(_ bytes: Data) throws {
    guard !checking else { return }
    writer.append(byte: UInt8(ascii: "\""))
    var encoder = Base64Encoder()
    try bytes.withUnsafeBytes { whole in
      // The encoder hands over 64 KiB of text at a time; each piece is flushed before the next.
      try encoder.encode(whole) { text in
        appendEscapingSlashes(text)
        try flushIfFull()
      }
    }
    try encoder.finish { text in appendEscapingSlashes(text) }
    writer.append(byte: UInt8(ascii: "\""))
  }

  /// Base64 text with each `/` written `\/`: eight characters at a time while none is a slash.
  private mutating func appendEscapingSlashes(_ text: UnsafeRawBufferPointer) {
    guard let source = text.baseAddress else { return }
    let start = writer.bytes.count
    // Room for the worst case, every character a slash; what is not used is cut off after.
    writer.bytes.append(contentsOf: repeatElement(0, count: text.count * 2))
    let written = writer.bytes.withUnsafeMutableBytes { output -> Int in
      guard let target = output.baseAddress?.advanced(by: start) else { return 0 }
      let slashes: UInt64 = 0x2F2F_2F2F_2F2F_2F2F
      var index = 0
      var filled = 0
      while index < text.count {
        if index + 8 <= text.count {
          let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          let match = word ^ slashes
          // A zero byte in `match` is a slash in `word`.
          if (match &- 0x0101_0101_0101_0101) & ~match & 0x8080_8080_8080_8080 == 0 {
            target.storeBytes(of: word, toByteOffset: filled, as: UInt64.self)
            index += 8
            filled += 8
            continue
          }
        }
        let byte = source.load(fromByteOffset: index, as: UInt8.self)
        if byte == UInt8(ascii: "/") {
          target.storeBytes(of: UInt8(ascii: "\\"), toByteOffset: filled, as: UInt8.self)
          filled += 1
        }
        target.storeBytes(of: byte, toByteOffset: filled, as: UInt8.self)
        index += 1
        filled += 1
      }
      return filled
    }
    writer.bytes.removeLast(text.count * 2 - written)
  }

  private func unrepresentable(_ message: String) -> AppValue.JSONUnrepresentable {
    var text = ""
    for step in path {
      switch step {
      case .key(let key): text += text.isEmpty ? key : "." + key
      case .position(let position): text += "[\(position)]"
      }
    }
    return AppValue.JSONUnrepresentable(path: text, message: message)
  }
}
