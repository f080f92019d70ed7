import Foundation

/// What a `Data` value holds, from its first bytes: the file extension its media file gets and
/// how a note field refers to it.
enum MediaSniffing {
  /// How a field shows a media file.
  enum Reference {
    /// `<img src="name">`.
    case image
    /// `[sound:name]` (Anki plays audio and video this way).
    case sound
    /// `<object data="name"></object>`, which Anki still counts as a reference.
    case object
  }

  /// The extension (without the dot) and reference form for `data`.
  static func kind(of data: Data) -> (ext: String, reference: Reference) {
    let bytes = Array(data.prefix(16))
    func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
      bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
    }
    func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
    if starts([0x89, 0x50, 0x4E, 0x47]) { return ("png", .image) }
    if starts([0xFF, 0xD8, 0xFF]) { return ("jpg", .image) }
    if ascii("GIF8") { return ("gif", .image) }
    if ascii("RIFF"), ascii("WEBP", at: 8) { return ("webp", .image) }
    if ascii("RIFF"), ascii("WAVE", at: 8) { return ("wav", .sound) }
    if ascii("ftyp", at: 4) {
      if ascii("heic", at: 8) || ascii("heix", at: 8) || ascii("mif1", at: 8) { return ("heic", .image) }
      if ascii("avif", at: 8) { return ("avif", .image) }
      if ascii("M4A", at: 8) { return ("m4a", .sound) }
      if ascii("qt", at: 8) { return ("mov", .sound) }
      return ("mp4", .sound)
    }
    if ascii("BM") { return ("bmp", .image) }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return ("tif", .image) }
    if ascii("ID3") || isMPEGAudioFrame(bytes) { return ("mp3", .sound) }
    if isADTSFrame(bytes) { return ("aac", .sound) }
    if ascii("OggS") { return ("ogg", .sound) }
    if ascii("fLaC") { return ("flac", .sound) }
    if ascii("%PDF") { return ("pdf", .object) }
    let head = String(decoding: data.prefix(256), as: UTF8.self)
    if head.contains("<svg") { return ("svg", .image) }
    return ("bin", .object)
  }

  /// Whether `bytes` begin with an MPEG audio frame header (an MP3 without an ID3 tag): eleven
  /// bits set (frame sync), a version other than the reserved one, and layer I, II or III, with
  /// or without a CRC (`FF FB`, `FF FA`, `FF F3`, `FF E3`, …).
  private static func isMPEGAudioFrame(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 else { return false }
    let version = (bytes[1] >> 3) & 0b11
    let layer = (bytes[1] >> 1) & 0b11
    return version != 0b01 && layer != 0b00
  }

  /// Whether `bytes` begin with an AAC frame in ADTS (a raw `.aac` file): twelve bits set (frame
  /// sync), an MPEG version bit, then layer 0 (`FF F1`, `FF F9`; `FF F0`, `FF F8` with a CRC).
  private static func isADTSFrame(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] & 0xF6 == 0xF0
  }

  /// The fewest bytes ``media(inBase64:)`` takes for a media file: shorter base64 text is text.
  static let minimumBase64Bytes = 64

  /// The bytes `text` encodes when it is a media file written as base64, as `JSONEncoder` writes
  /// a `Data` value (an app's picture in a JSON file, which holds no type for it): canonical
  /// base64 (`A–Z a–z 0–9 + /`, `=` padding, no white space, unused bits zero) of at least
  /// ``minimumBase64Bytes`` bytes that begin as a format ``kind(of:)`` knows (not `bin`). Nil for
  /// any other text, which stays text.
  static func media(inBase64 text: String) -> Data? {
    let characters = text.utf8
    guard characters.count >= (minimumBase64Bytes + 2) / 3 * 4, characters.count % 4 == 0,
      characters.allSatisfy(isBase64Character),
      let head = Data(base64Encoded: String(text.prefix(24))), kind(of: head).ext != "bin",
      let data = Data(base64Encoded: text), data.base64EncodedString() == text
    else { return nil }
    return data
  }

  private static func isBase64Character(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
      true
    default: false
    }
  }

  /// The field text that refers to the media file `name`.
  static func fieldText(for name: String, reference: Reference) -> String {
    switch reference {
    case .image: "<img src=\"\(name)\">"
    case .sound: "[sound:\(name)]"
    case .object: "<object data=\"\(name)\"></object>"
    }
  }
}
