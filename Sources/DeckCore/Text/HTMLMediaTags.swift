#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The media tags Anki finds in a field: the matches of its `HTML_MEDIA_TAGS` pattern
/// (`rslib/src/text.rs`), found in time linear in the field's length.
///
/// The pattern, case-insensitive, is
/// `<\b(?:img|audio|video|object|source)\b(?:[^>]|"[^"]+?"|'[^']+?')+?\b(?:src|data)\b=`
/// followed by a double-quoted value and `[^>]*>`, a single-quoted one and `[^>]*>`, or an
/// unquoted one (`[^ >]+?`, in which verbose mode drops the space) ended by a space and `[^>]*>`
/// or by `>`. Anki runs it with Rust's
/// `regex` crate, which never backtracks; a backtracking engine (Foundation's) takes time
/// exponential in the number of quoted runs in a tag without a `src`. This scan gives the match
/// Rust's leftmost-first rules give, including where they surprise: a `src=` inside another
/// attribute's quoted value, `data-src=`, a quoted run holding `>`, `src=""` taken as the
/// unquoted value `""`.
///
/// How: the lazy loop's state is only its position, and the tail (`src=` and a value) either
/// matches at a position or not, so a position from which no match follows is remembered and
/// never explored again, whichever tag start reaches it. The loop steps one character at a time
/// until a `>`; a quoted run matters only where it carries the loop past a `>`. Every position
/// is explored once and every quote's partner is found once, so a field costs a few passes.
package enum HTMLMediaTags {
  /// One media tag: the bytes of the whole match and of its file name, as written (entities
  /// not decoded).
  package struct Match: Equatable, Sendable {
    /// The whole match, from the `<` to the `>` that ends it.
    package var whole: Range<Int>
    /// The attribute's value: between the quotes, or the unquoted run.
    package var value: Range<Int>
  }

  /// Every match in `bytes` (UTF-8 text), in order, as Rust's `captures_iter` finds them: each
  /// search starts where the previous match ended.
  package static func matches(in bytes: UnsafeBufferPointer<UInt8>) -> [Match] {
    var scan = Scan(bytes: bytes)
    var found: [Match] = []
    var start = 0
    while let open = scan.index(of: UInt8(ascii: "<"), from: start) {
      if let bodyStart = scan.tagNameEnd(after: open), let match = scan.match(from: open, body: bodyStart) {
        found.append(match)
        start = match.whole.upperBound
      } else {
        start = open + 1
      }
    }
    return found
  }

  /// The search's state over one field.
  private struct Scan {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The index of the last `>`: every way the pattern can end needs one at or after the
    /// value, so a value past it fails at once.
    let lastClose: Int?
    /// Positions of the lazy loop from which no match follows (a bit each, made on first use).
    var deadEnds: [UInt64] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
      lastClose = bytes.lastIndex(of: UInt8(ascii: ">"))
    }

    // MARK: The tag's start

    /// The index after `img`, `audio`, `video`, `object` or `source` directly after the `<` at
    /// `open` and followed by a non-word character, or nil.
    func tagNameEnd(after open: Int) -> Int? {
      for name in HTMLMediaTags.tagNames {
        if let end = name.end(in: bytes, at: open + 1) {
          return WordCharacter.starts(at: end, in: bytes) ? nil : end
        }
      }
      return nil
    }

    // MARK: The lazy loop

    /// A pending branch of the search: positions stepped through one character at a time, from
    /// `first` to `last`, whose quotes are yet to be tried, from `nextQuote` back to `first`.
    private struct Stretch {
      var first: Int
      var last: Int
      var nextQuote: Int
    }

    /// The match of the tag whose name ends at `body` (its `<` at `open`), or nil.
    ///
    /// A depth-first search in the order a backtracking engine would take: from each position,
    /// the tail first, then one character further, and only when everything beyond has failed,
    /// a quoted run starting there. Positions are walked forward in stretches up to a `>`; going
    /// back, each position is given up for good (a dead end) once its quote, if any, has led
    /// nowhere. A quoted run without a `>` inside leads to a position already given up, so only
    /// runs that carry the loop past a `>` are followed.
    mutating func match(from open: Int, body: Int) -> Match? {
      var pending: [Stretch] = []
      // The loop must take one item first; the tail cannot match at `body` anyway (a tag name's
      // last letter is a word character, so `\b` before `src` fails there), so `body` is
      // explored like any other position.
      var next: Int? = body
      while true {
        if let start = next {
          next = nil
          var position = start
          while true {
            if isDeadEnd(position) {
              position -= 1
              break
            }
            if let found = tail(at: position) { return found.with(open: open) }
            if position >= bytes.count || bytes[position] == UInt8(ascii: ">") { break }
            position += 1
          }
          if position >= start { pending.append(Stretch(first: start, last: position, nextQuote: position)) }
          continue
        }
        guard var stretch = pending.popLast() else { return nil }
        // Back from a quoted run that led nowhere: its quote is a dead end now.
        if stretch.nextQuote < stretch.last {
          markDeadEnds((stretch.nextQuote + 1)...stretch.last)
          stretch.last = stretch.nextQuote
        }
        while stretch.nextQuote >= stretch.first {
          let quoteAt = stretch.nextQuote
          stretch.nextQuote -= 1
          guard quoteAt < bytes.count else { continue }
          let byte = bytes[quoteAt]
          guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'"),
            let partner = closingQuote(byte, openedAt: quoteAt), !isDeadEnd(partner + 1)
          else { continue }
          // Everything after the quote has been tried: dead ends, before the run is followed.
          if quoteAt < stretch.last { markDeadEnds((quoteAt + 1)...stretch.last) }
          stretch.last = quoteAt
          pending.append(stretch)
          next = partner + 1
          break
        }
        // A run whose first position was its quote has nothing left once the quote is given up.
        if next == nil, stretch.first <= stretch.last { markDeadEnds(stretch.first...stretch.last) }
      }
    }

    // MARK: The tail: `\b(?:src|data)\b=` and a value

    /// The value and end of the match if the tail matches at `position`.
    func tail(at position: Int) -> PartialMatch? {
      guard position < bytes.count, position > 0 else { return nil }
      let first = bytes[position]
      let isS = first == UInt8(ascii: "s") || first == UInt8(ascii: "S") || first == 0xC5
      let isD = first == UInt8(ascii: "d") || first == UInt8(ascii: "D")
      guard isS || isD, !WordCharacter.ends(at: position, in: bytes),
        let nameEnd = (isS ? HTMLMediaTags.src : HTMLMediaTags.data).end(in: bytes, at: position),
        nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: "=")
      else { return nil }
      let valueStart = nameEnd + 1
      guard valueStart < bytes.count, let lastClose, lastClose > valueStart else { return nil }
      let quote = bytes[valueStart]
      if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
        let partner = closingQuote(quote, openedAt: valueStart), partner < lastClose,
        let end = index(of: UInt8(ascii: ">"), from: partner + 1)
      {
        return PartialMatch(value: (valueStart + 1)..<partner, end: end + 1)
      }
      // Unquoted: `([^ >]+?)`, but Anki's pattern is verbose (`(?x)`), where Rust ignores the
      // space inside the class: one character other than `>`, then up to the first space or `>`
      // after it, and a `>` at or after that.
      guard bytes[valueStart] != UInt8(ascii: ">") else { return nil }
      var stop = valueStart + 1
      while stop < bytes.count, bytes[stop] != UInt8(ascii: " "), bytes[stop] != UInt8(ascii: ">") { stop += 1 }
      guard stop <= lastClose else { return nil }
      if bytes[stop] == UInt8(ascii: ">") { return PartialMatch(value: valueStart..<stop, end: stop + 1) }
      guard let end = index(of: UInt8(ascii: ">"), from: stop + 1) else { return nil }
      return PartialMatch(value: valueStart..<stop, end: end + 1)
    }

    /// A tail's match before the tag's start is known.
    struct PartialMatch {
      var value: Range<Int>
      var end: Int

      func with(open: Int) -> Match { Match(whole: open..<end, value: value) }
    }

    // MARK: Characters

    /// The index of the quote closing the quoted run that opens at `opening` (`"[^"]+?"`: at
    /// least one other character between them), or nil.
    func closingQuote(_ quote: UInt8, openedAt opening: Int) -> Int? {
      guard let partner = index(of: quote, from: opening + 1), partner > opening + 1 else { return nil }
      return partner
    }

    /// The index of the first `byte` at or after `start` (a `memchr`), or nil.
    func index(of byte: UInt8, from start: Int) -> Int? {
      guard let base = bytes.baseAddress, start < bytes.count,
        let found = memchr(base + start, Int32(byte), bytes.count - start)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    // MARK: Dead ends

    func isDeadEnd(_ position: Int) -> Bool {
      let word = position >> 6
      return word < deadEnds.count && deadEnds[word] & (1 << UInt64(position & 63)) != 0
    }

    mutating func markDeadEnds(_ positions: ClosedRange<Int>) {
      if deadEnds.isEmpty { deadEnds = Array(repeating: 0, count: (bytes.count >> 6) + 2) }
      for position in positions where position >> 6 < deadEnds.count {
        deadEnds[position >> 6] |= 1 << UInt64(position & 63)
      }
    }
  }

  /// The tag names and attribute names, compared as Rust's `(?i)` compares them (`ſ` is an `s`).
  static let tagNames = ["img", "audio", "video", "object", "source"].map { FoldedLiteral($0) }
  static let src = FoldedLiteral("src")
  static let data = FoldedLiteral("data")
}
