import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Decodes the second half of each split array (a deck's `notes`, `cards`, `reviews`) on a
/// second thread while the syntax pass decodes the first half, so that the two cores share it.
///
/// Where an element starts can only be known by reading every element before it, so the second
/// half starts at a guess: the first line, past the middle of the array's text, that opens an
/// element the way deckport's writer lays them out (a line of four spaces and `{`; the array's
/// end is the first line of two spaces and `]`). From there the thread decodes element after
/// element, as strictly as the pass checks them (``JSONElementDecoder/element(_:in:at:fieldNames:)``),
/// and stops at the first one it is not sure of, at the array's end, or at the end of the text
/// the reader's budget leaves.
///
/// The guess is only taken when it proves right: when the pass, decoding from the front, starts
/// an element exactly there (``take(_:at:)``), it stops the thread and takes the elements it
/// decoded, in order, in place of decoding them (a parse from a true element start is the
/// pass's own parse). Otherwise nothing the thread made is used. A document laid out another
/// way is read as before, on one core. The thread never reports a problem: from the first
/// element it did not decode, the pass reads on as before, and every error is the pass's.
final class SecondHalfDecoding: @unchecked Sendable {
  /// An element the thread decoded, and its place in the file.
  struct Decoded {
    var element: JSONElementDecoder.Element
    var range: Range<Int>
  }

  /// The array being read.
  private struct Job {
    var section: DeckJSONReader.Section
    /// Where the array's first element starts, and how far the reader's budget reaches.
    var start: Int
    var limit: Int
  }

  private let file: MappedFile
  private let condition = NSCondition()
  /// The array the thread is asked to work on, once.
  private var job: Job?
  /// Where the thread's guess is (nil until it has made one; `Int.max` for none).
  private var guess: Int?
  /// What the thread decoded from the guess on.
  private var decoded: [Decoded] = []
  /// The pass has taken the thread's elements or gone past the guess: the thread stops.
  private var stopped = false
  /// The thread is between elements or done (not touching `decoded`).
  private var working = false
  /// The whole read is over.
  private var ended = false
  private var work: BackgroundWork<Void>?

  // The pass's side, used on its thread only.
  /// The array whose second half is being decoded, and the guess once known.
  private var current: DeckJSONReader.Section?
  private var knownGuess: Int?

  /// Starts the thread, which waits for arrays of `file`.
  init(file: MappedFile) {
    self.file = file
    work = BackgroundWork { [self] in run() }
  }

  /// Whether the thread has no array to work on (it has done its array, or was stopped).
  var isIdle: Bool {
    condition.lock()
    defer { condition.unlock() }
    return !working
  }

  /// Ends the thread (after the element it is on) and waits for it.
  func stop() {
    condition.lock()
    ended = true
    stopped = true
    condition.broadcast()
    condition.unlock()
    _ = try? work?.wait()
  }

  /// Called by the pass at each element of split array `section`, starting at `start`, while
  /// the budget allows `budgetBytes` more of decoded text. At the array's first element, the
  /// thread is set to work on its second half; at the guess, the elements decoded from there
  /// are returned (nil when none) and the pass goes on after the last of them.
  func take(_ section: DeckJSONReader.Section, at start: Int, budgetBytes: Int) -> [Decoded]? {
    if current != section {
      current = section
      knownGuess = nil
      let (limit, overflow) = start.addingReportingOverflow(max(budgetBytes, 0))
      begin(Job(section: section, start: start, limit: overflow ? Int.max : limit))
      return nil
    }
    if knownGuess == nil {
      condition.lock()
      knownGuess = guess
      condition.unlock()
    }
    guard let guess = knownGuess, start >= guess, guess != Int.max else { return nil }
    knownGuess = Int.max
    condition.lock()
    stopped = true
    condition.broadcast()
    while working { condition.wait() }
    let found = start == guess ? decoded : []
    decoded = []
    condition.unlock()
    return found.isEmpty ? nil : found
  }

  /// Sets the thread to work on `job`, once the previous one is over.
  private func begin(_ job: Job) {
    condition.lock()
    stopped = true
    while working { condition.wait() }
    self.job = job
    guess = nil
    decoded = []
    stopped = false
    working = true
    condition.broadcast()
    condition.unlock()
  }

  private func run() {
    condition.lock()
    while !ended {
      guard working, let job else {
        condition.wait()
        continue
      }
      self.job = nil
      condition.unlock()
      decodeSecondHalf(job)
      condition.lock()
      working = false
      condition.broadcast()
    }
    condition.unlock()
  }

  /// Guesses where the second half of `job`'s array starts and decodes from there until told
  /// to stop, or until an element it is not sure of, the array's end or the budget's.
  private func decodeSecondHalf(_ job: Job) {
    let bytes = file.bytes
    let limit = min(job.limit, bytes.count)
    let start = Self.secondHalf(in: bytes, from: job.start, limit: limit)
    condition.lock()
    guess = start ?? Int.max
    condition.unlock()
    guard var index = start else { return }
    var fieldNames: [String] = []
    while index < limit {
      guard let (element, end) = JSONElementDecoder.element(job.section, in: bytes, at: index, fieldNames: &fieldNames)
      else { return }
      condition.lock()
      let keep = !stopped
      if keep { decoded.append(Decoded(element: element, range: index..<end)) }
      condition.unlock()
      guard keep,
        let (next, ends) = try? JSONBytes.scanListContinuation(
          bytes, from: end, closing: UInt8(ascii: "]"), orElse: .expectedCommaOrBracket),
        !ends
      else { return }
      index = next
    }
  }

  private static let arrayEnd = Array("\n  ]".utf8)
  private static let elementStart = Array("\n    {".utf8)

  /// Where the first element past the middle of the array starting at `start` seems to start
  /// (the array's end, or `limit` if sooner, taken as its end), or nil when no line there
  /// looks like one.
  static func secondHalf(in bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int? {
    guard start < limit else { return nil }
    let end = find(arrayEnd, in: bytes, from: start, to: limit) ?? limit
    let middle = start + (end - start) / 2
    guard let line = find(elementStart, in: bytes, from: middle, to: end) else { return nil }
    return line + elementStart.count - 1
  }

  /// Where `pattern` first occurs in `bytes[from..<to]`, or nil.
  private static func find(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
    guard let base = bytes.baseAddress, let last = pattern.last else { return nil }
    // The last byte (a bracket or brace, rarer than the line feed) found by the C library's
    // vector search, the bytes before it compared.
    var position = from + pattern.count - 1
    while position < to {
      guard let found = memchr(base + position, Int32(last), to - position) else { return nil }
      position = base.distance(to: UnsafeRawPointer(found))
      let start = position - (pattern.count - 1)
      if pattern.indices.allSatisfy({ bytes[start + $0] == pattern[$0] }) { return start }
      position += 1
    }
    return nil
  }
}
