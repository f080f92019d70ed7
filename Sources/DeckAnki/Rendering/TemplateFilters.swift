/// Anki's built-in card template filters other than the cloze ones, each producing what Anki's
/// filter of that name produces (`rslib/src/template_filters.rs`), byte for byte.
///
/// ```swift
/// TemplateFilters.furigana("日本語[にほんご]を 勉強[べんきょう]する")
/// // "<ruby><rb>日本語</rb><rt>にほんご</rt></ruby>を<ruby><rb>勉強</rb><rt>べんきょう</rt></ruby>する"
/// TemplateFilters.kana("漢字[かんじ]")                      // "かんじ"
/// TemplateFilters.typeAnswer(fieldName: "Back")          // "[[type:Back]]"
/// TemplateFilters.tts(options: "en_US", text: "Hello")   // "[anki:tts lang=en_US]Hello[/anki:tts]"
/// ```
///
/// The `text` filter is Anki's `strip_html`, ``AnkiFieldText/strippingHTML(_:)``. The template
/// engine picks the filter and passes the field's text and name; these functions only
/// transform. `fixtures/rendering/filter_cases.json`, made by the real backend, is the judge.
package enum TemplateFilters {
  // MARK: Ruby (furigana, kana, kanji)

  /// Anki's `furigana` filter: each `base[reading]` becomes
  /// `<ruby><rb>base</rb><rt>reading</rt></ruby>`.
  ///
  /// The rules, all three ruby filters alike: every `&nbsp;` first becomes a space; a base is
  /// the text (at least one character) up to the `[` that is neither a space nor `>` and so
  /// may hold tags' insides, line breaks and even brackets; a reading is at least one
  /// character up to the first `]` after it, on one line; one space before the base is part of
  /// the match and goes; a reading that starts with `sound:` leaves the whole match (its space
  /// too) as it was.
  package static func furigana(_ text: String) -> String {
    replacingRuby(in: text) { base, reading, output in
      output.append(contentsOf: "<ruby><rb>".utf8)
      output.append(contentsOf: base)
      output.append(contentsOf: "</rb><rt>".utf8)
      output.append(contentsOf: reading)
      output.append(contentsOf: "</rt></ruby>".utf8)
    }
  }

  /// Anki's `kana` filter: each `base[reading]` becomes its reading (the rules of
  /// ``furigana(_:)``).
  package static func kana(_ text: String) -> String {
    replacingRuby(in: text) { _, reading, output in output.append(contentsOf: reading) }
  }

  /// Anki's `kanji` filter: each `base[reading]` becomes its base (the rules of
  /// ``furigana(_:)``).
  package static func kanji(_ text: String) -> String {
    replacingRuby(in: text) { base, _, output in output.append(contentsOf: base) }
  }

  // MARK: Other filters

  /// Anki's `hint` filter: a link with the field's name that reveals the hidden text, the two
  /// tied by a DOM id made of the first eight bytes (in hex) of the BLAKE3 digest of the text
  /// and then the field name (UTF-8). Text that is empty or only Unicode white space is
  /// returned as it is.
  ///
  /// - Parameters:
  ///   - text: The field's text, put into the page unchanged (HTML stays HTML).
  ///   - fieldName: The field's name as the template names it, shown as the link's text.
  package static func hint(_ text: String, fieldName: String) -> String {
    if text.unicodeScalars.allSatisfy(\.properties.isWhitespace) { return text }
    var hasher = BLAKE3()
    hasher.update(text.utf8)
    hasher.update(fieldName.utf8)
    let id = hexDigits(hasher.finalize().prefix(8))
    return """

      <a class=hint href="#"
      onclick="this.style.display='none';
      document.getElementById('hint\(id)').style.display='block';
      return false;" draggable=false>
      \(fieldName)</a>
      <div id="hint\(id)" class=hint style="display: none">\(text)</div>

      """
  }

  /// Anki's `type` filter (`{{type:Field}}`): the marker `[[type:Field]]` that the reviewer
  /// turns into a type-the-answer box.
  package static func typeAnswer(fieldName: String) -> String {
    "[[type:\(fieldName)]]"
  }

  /// Anki's `type-cloze` filter (`{{type:cloze:Field}}`): the marker `[[type:cloze:Field]]`,
  /// a box for the card's cloze deletions.
  package static func typeAnswerCloze(fieldName: String) -> String {
    "[[type:cloze:\(fieldName)]]"
  }

  /// Anki's `type-nc` filter (`{{type:nc:Field}}`): the marker `[[type:nc:Field]]`, a box
  /// whose comparison ignores combining characters (accents).
  package static func typeAnswerNoCombining(fieldName: String) -> String {
    "[[type:nc:\(fieldName)]]"
  }

  /// Anki's `tts` filter (`{{tts en_US voices=Apple_Samantha speed=1.2:Field}}`): the text
  /// wrapped in the tag the reviewer reads aloud.
  ///
  /// - Parameters:
  ///   - options: Everything after `tts ` in the filter's name, kept as it is (a second space
  ///     stays in the output).
  ///   - text: The field's text, unchanged.
  package static func tts(options: String, text: String) -> String {
    "[anki:tts lang=\(options)]\(text)[/anki:tts]"
  }

  // MARK: The ruby scan

  /// `text` with `&nbsp;` turned into spaces and each ruby match (Anki's pattern
  /// ` ?([^ >]+?)\[(.+?)\]`, leftmost first) replaced by what `replacement` appends, given the
  /// base and the reading; matches whose reading starts with `sound:` stay as they are.
  ///
  /// The pattern is applied by a scan of the UTF-8 bytes, in linear time. Every delimiter is
  /// ASCII, so no match splits a character. A match starts at the first byte of a run of bytes
  /// other than space and `>` (or at the space just before it): its base runs to the first `[`
  /// after that byte, within the run, that opens a valid reading. A reading is valid when the
  /// byte after the `[` is not a line feed and a `]` comes, two bytes on or later, before any
  /// line feed. Where a run has no such `[`, no position inside it starts a match either, and
  /// the scan goes on after it.
  private static func replacingRuby(
    in text: String, _ replacement: (_ base: ArraySlice<UInt8>, _ reading: ArraySlice<UInt8>, inout [UInt8]) -> Void
  ) -> String {
    let bytes = replacingNonBreakingSpaceEntities(Array(text.utf8))
    guard bytes.contains(UInt8(ascii: "[")) else { return String(decoding: bytes, as: UTF8.self) }
    let space = UInt8(ascii: " ")
    let closeAngle = UInt8(ascii: ">")
    let openBracket = UInt8(ascii: "[")
    let count = bytes.count
    func inRun(_ byte: UInt8) -> Bool { byte != space && byte != closeAngle }

    var stops = ReadingStops(bytes: bytes)
    var output: [UInt8] = []
    output.reserveCapacity(count + count / 4)
    var copiedUpTo = 0
    var position = 0
    while position < count {
      let matchStart = position
      let baseStart: Int
      if bytes[position] == space {
        guard position + 1 < count, inRun(bytes[position + 1]) else {
          position += 1
          continue
        }
        baseStart = position + 1
      } else if bytes[position] == closeAngle {
        position += 1
        continue
      } else {
        baseStart = position
      }
      var bracket = baseStart + 1
      var readingEnd: Int?
      while bracket < count, inRun(bytes[bracket]) {
        if bytes[bracket] == openBracket, let end = stops.readingEnd(openingAt: bracket) {
          readingEnd = end
          break
        }
        bracket += 1
      }
      guard let readingEnd else {
        position = bracket
        continue
      }
      let reading = bytes[(bracket + 1)..<readingEnd]
      output.append(contentsOf: bytes[copiedUpTo..<matchStart])
      if reading.starts(with: "sound:".utf8) {
        output.append(contentsOf: bytes[matchStart...readingEnd])
      } else {
        replacement(bytes[baseStart..<bracket], reading, &output)
      }
      position = readingEnd + 1
      copiedUpTo = position
    }
    guard copiedUpTo > 0 else { return String(decoding: bytes, as: UTF8.self) }
    output.append(contentsOf: bytes[copiedUpTo...])
    return String(decoding: output, as: UTF8.self)
  }

  /// Finds where a ruby reading ends, remembering the last stop found, so that a scan asking
  /// at positions that only grow reads each byte once.
  private struct ReadingStops {
    /// The text's UTF-8 bytes.
    let bytes: [UInt8]
    /// A range known to hold no `]` or line feed before its upper bound, which is one of
    /// them or the end of the text.
    var knownClear = 0..<0

    /// Creates a finder over `bytes` that knows nothing yet.
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The index of the `]` closing a reading whose `[` is at `bracket`, or nil when the
    /// reading is empty, starts with a line feed, or meets a line feed or the end of the text
    /// before a `]`. The reading's first byte may itself be a `]`.
    mutating func readingEnd(openingAt bracket: Int) -> Int? {
      let first = bracket + 1
      guard first < bytes.count, bytes[first] != UInt8(ascii: "\n") else { return nil }
      let from = first + 1
      let stop: Int
      if knownClear.lowerBound <= from, from <= knownClear.upperBound {
        stop = knownClear.upperBound
      } else {
        var index = from
        while index < bytes.count, bytes[index] != UInt8(ascii: "]"), bytes[index] != UInt8(ascii: "\n") {
          index += 1
        }
        stop = index
        knownClear = from..<stop
      }
      guard stop < bytes.count, bytes[stop] == UInt8(ascii: "]") else { return nil }
      return stop
    }
  }

  /// `bytes` with every `&nbsp;` (exactly so, lowercase) replaced by a space, left to right.
  private static func replacingNonBreakingSpaceEntities(_ bytes: [UInt8]) -> [UInt8] {
    let entity = Array("&nbsp;".utf8)
    guard bytes.contains(UInt8(ascii: "&")) else { return bytes }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "&"), bytes[index...].starts(with: entity) {
        output.append(UInt8(ascii: " "))
        index += entity.count
      } else {
        output.append(bytes[index])
        index += 1
      }
    }
    return output
  }

  /// `bytes` as lowercase hexadecimal digits, two per byte.
  private static func hexDigits(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var output: [UInt8] = []
    for byte in bytes {
      output.append(digits[Int(byte >> 4)])
      output.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: output, as: UTF8.self)
  }
}
