import DeckAppStorage
import DeckCore
import Foundation
import FuzzSupport
import JSONCore

// Any bytes as the file an iOS app keeps its cards in: a plist, a JSON record file, or an SQLite
// database (deckport's schema or a Core Data/SwiftData store), each under its usual extension.
// The reader, and the mapping of its records onto notes, must answer with records or a
// DeckError. The kind is detected from the content, as `deckport convert` does.
let scratches = [
  FuzzScratchFile(suffix: ".plist"), FuzzScratchFile(suffix: ".json"), FuzzScratchFile(suffix: ".store"),
]

/// The input, held still while values the parse left in it refer to it.
final class HeldBytes: JSONSource, @unchecked Sendable {
  private let storage: UnsafeMutableRawBufferPointer
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(storage) }
  init(_ data: Data) {
    storage = .allocate(byteCount: data.count, alignment: 1)
    storage.copyBytes(from: data)
  }
  deinit { storage.deallocate() }
}

/// The JSON record reader leaves strings of 128 KiB or more in the file; here every string from
/// the length the first byte chooses is left, and the parse must mean what the parse that decodes
/// every string means, or fail at the same place with the same message. Each string left must
/// decode as base64 exactly when Foundation's decoder gives it back canonically.
func compareLeavingStrings(_ data: Data) {
  let minimum = Int(data.first ?? 0) % 24
  let whole = Result<JSONValue, JSONSyntaxError> { () throws(JSONSyntaxError) in
    try JSONParser.parse(data, options: AppValue.jsonOptions)
  }
  let left = Result<JSONValue, JSONSyntaxError> { () throws(JSONSyntaxError) in
    try JSONParser.parse(source: HeldBytes(data), leavingStringsFrom: minimum, options: AppValue.jsonOptions)
  }
  switch (whole, left) {
  case (.success(let decoded), .success(let value)):
    guard decoded == value else { fatalError("the parse that leaves strings means something else") }
    checkBase64(value)
  case (.failure(let expected), .failure(let actual)):
    guard expected.message == actual.message, expected.line == actual.line, expected.column == actual.column else {
      fatalError(
        "errors differ: \(expected.message) at \(expected.line):\(expected.column), \(actual.message) at \(actual.line):\(actual.column)"
      )
    }
  default:
    fatalError("one parse failed and the other did not: \(whole), \(left)")
  }
}

func checkBase64(_ value: JSONValue) {
  switch value {
  case .unreadString(let unread):
    let text = unread.text
    let foundation = Data(base64Encoded: text).flatMap { $0.base64EncodedString() == text ? $0 : nil }
    let decoded = JSONBase64Text.data(in: unread)
    if containsOtherEscape(unread.rawText) {
      // `\u002F` and the like may be base64 to Foundation once unescaped; deckport reads the text.
      if decoded != nil { fatalError("an escape other than \\/ read as base64") }
    } else if decoded != foundation {
      fatalError("base64 read as \(String(describing: decoded)), Foundation: \(String(describing: foundation))")
    }
    if let decoded, !JSONBase64Text.isEncoding(of: decoded, in: unread) { fatalError("its own bytes do not match") }
  case .array(let items):
    for item in items { checkBase64(item) }
  case .object(let members):
    for member in members { checkBase64(member.value) }
  default: break
  }
}

/// Whether raw string text has an escape other than `\/`.
func containsOtherEscape(_ raw: UnsafeRawBufferPointer) -> Bool {
  var index = 0
  while index < raw.count {
    if raw[index] == 0x5C {
      if index + 1 < raw.count, raw[index + 1] != UInt8(ascii: "/") { return true }
      index += 2
    } else {
      index += 1
    }
  }
  return false
}

runFuzzer { data in
  compareLeavingStrings(data)
  for scratch in scratches {
    scratch.write(data)
    do {
      let content = try AppStorageReader().read(path: scratch.path)
      let mapped = try AppRecordMapping.collection(from: content.records)
      try readAllMedia(mapped.collection)
    } catch is DeckError {
    } catch {
      fatalError("not a DeckError: \(error)")
    }
  }
}
