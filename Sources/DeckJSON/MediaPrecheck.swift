import DeckCore
import DeckIO
import Foundation

/// Decodes and hashes each media string the syntax pass sets aside, on a second thread, while
/// the pass goes on and the notes, cards and reviews are read: the reader then only compares
/// each file's SHA-1 and size with what the document declares.
///
/// Strings are taken in the order the pass finds them, one at a time, decoded chunk by chunk
/// from the file, so memory does not grow with the media; once the pass has found them all, the
/// thread goes on from the last string backwards. A reader that asks for a string not done yet
/// takes the first string nobody has started and does it itself while it waits, so the two
/// threads share what is left from both ends. A string that does not decode is not reported
/// from here: ``fingerprint(of:)`` returns nil for it and the reader decodes it again itself, so
/// every error is the reader's own, at its place and in its order.
///
/// A string whose length the pass took from its declared size, unread
/// (``JSONSyntaxPass/SetAside/lengthDeclared``), must be plain text: the reader asks whether
/// all were (``declaredLengthsHold()``) before it keeps anything it read, and reads the document
/// again without declared lengths if one was not. A string that decodes is plain text (every
/// base64 character is), so a string hashed by then needs no other look; the others are read
/// for their text only when the reader asks, by the reader and the thread together.
///
/// A reader that defers its media checks to the writer hands over the blob of each string not
/// done by the end of reading (``attach(_:to:)``) and leaves the thread running: it records what
/// it computes in the blob (``MediaBlob/recordComputed(sha1:size:)``), working from the last
/// media backwards while the writer's workers read them from the first, and ends where the two
/// meet, or when no blob it was given is left (``Lease``).
final class MediaPrecheck: @unchecked Sendable {
  /// The SHA-1 and size of a decoded string.
  struct Fingerprint {
    var sha1: [UInt8]
    var size: Int64
  }

  /// Where a string's work is.
  private enum Slot {
    case waiting
    case started
    /// Done: its fingerprint, or nil when it did not decode.
    case done(Fingerprint?)
  }

  private let path: String
  private let condition = NSCondition()
  /// The strings found so far, by set-aside number, and where each one's work is.
  private var strings: [JSONSyntaxPass.SetAside] = []
  private var slots: [Slot] = []
  /// The strings nobody has started: the first one, and the one after the last.
  private var nextWaiting = 0
  private var endWaiting = 0
  /// Whether each string is known to be plain text: decoded, or checked.
  private var knownPlain: [Bool] = []
  /// The strings whose text must be plain, by number; the first nobody has looked at since the
  /// reader asked; how many are being checked; whether one was found not to be plain text;
  /// whether the reader has asked (before, no text is read only to be checked).
  private var unchecked: [Int] = []
  private var nextUnchecked = 0
  private var checking = 0
  private var textFailed = false
  private var verdictWanted = false
  /// How many strings were read only to check their text.
  private var textReads = 0
  /// The blob each string not done by the end of reading became, if it is still in use.
  private var blobs: [Int: WeakBlob] = [:]
  /// No more strings are coming.
  private var complete = false
  /// The work is no longer wanted: the thread stops after the string it is on.
  private var cancelled = false
  private var work: BackgroundWork<Void>?

  /// Starts the thread, which waits for strings in the document at `path`.
  init(path: String) {
    self.path = path
    work = BackgroundWork { [self] in run() }
  }

  /// Queues set-aside string number `strings.count` (the next one).
  func add(_ string: JSONSyntaxPass.SetAside) {
    condition.lock()
    strings.append(string)
    slots.append(.waiting)
    endWaiting = strings.count
    knownPlain.append(false)
    if string.lengthDeclared { unchecked.append(strings.count - 1) }
    condition.signal()
    condition.unlock()
  }

  /// Tells the thread that no more strings are coming.
  func finishAdding() {
    condition.lock()
    complete = true
    condition.broadcast()
    condition.unlock()
  }

  /// The SHA-1 and size of set-aside string `number`; nil when it did not decode, was never
  /// queued, or the work was stopped. Until it is done, the caller does strings nobody has
  /// started, or waits.
  func fingerprint(of number: Int) -> Fingerprint? {
    condition.lock()
    defer { condition.unlock() }
    while slots.indices.contains(number) && !cancelled {
      if case .done(let fingerprint) = slots[number] { return fingerprint }
      if let (claimed, string) = claimNext() {
        condition.unlock()
        let fingerprint = compute(string)
        condition.lock()
        finish(claimed, fingerprint)
      } else {
        condition.wait()
      }
    }
    return nil
  }

  /// Hands over the blob set-aside string `number` became, whose declaration is still to be
  /// checked: the string's SHA-1 and size are recorded in it (which makes the check) as soon as
  /// they are computed, now if they are. A blob whose bytes differ from its declaration, or do
  /// not decode, keeps its check for whoever reads it. The blob is not kept alive from here.
  func attach(_ blob: MediaBlob, to number: Int) {
    condition.lock()
    guard slots.indices.contains(number) else { return condition.unlock() }
    if case .done(let fingerprint) = slots[number] {
      condition.unlock()
      if let fingerprint { Self.record(fingerprint, in: blob) }
      return
    }
    blobs[number] = WeakBlob(blob: blob)
    condition.unlock()
  }

  /// Asks the thread to stop after the string it is on, without waiting for it.
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }

  /// Whether every string whose length was declared is plain text, as the pass would have read
  /// it: those not decoded by now are checked, by the caller and the thread (the caller does
  /// them all after ``stop()``), and the caller waits for the last.
  func declaredLengthsHold() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if !verdictWanted {
      verdictWanted = true
      condition.broadcast()
    }
    while true {
      if checkNextUnchecked() {
        continue
      } else if checking > 0 {
        condition.wait()
      } else {
        return !textFailed
      }
    }
  }

  /// Waits for the thread to end on its own: when no string is left for it, or it was cancelled.
  func waitForEnd() {
    _ = try? work?.wait()
  }

  /// Whether the work is no longer wanted (``cancel()``, ``stop()``, or the lease let go of).
  var isCancelled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return cancelled
  }

  /// How many strings were read only to check their text so far (for the tests: a string
  /// decoded before the reader asks is not among them).
  var textReadCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return textReads
  }

  /// Stops the thread after the string it is on and waits for it to end.
  func stop() {
    cancel()
    _ = try? work?.wait()
  }

  private func run() {
    condition.lock()
    defer { condition.unlock() }
    while !cancelled {
      if checkNextUnchecked() {
        continue
      } else if let (claimed, string) = complete ? claimLast() : claimNext() {
        condition.unlock()
        let fingerprint = compute(string)
        condition.lock()
        finish(claimed, fingerprint)
      } else if complete {
        return
      } else {
        condition.wait()
      }
    }
  }

  /// Once the reader has asked, checks the text of the next string not yet shown plain (by
  /// decoding or by a check), if there is one and none has failed (the lock held, and let go of
  /// during the check); false when there was none.
  private func checkNextUnchecked() -> Bool {
    guard verdictWanted, !textFailed else { return false }
    while nextUnchecked < unchecked.count {
      let number = unchecked[nextUnchecked]
      nextUnchecked += 1
      guard !knownPlain[number] else { continue }
      checking += 1
      textReads += 1
      condition.unlock()
      let plain = checkText(strings[number])
      condition.lock()
      checking -= 1
      if plain { knownPlain[number] = true } else { textFailed = true }
      condition.broadcast()
      return true
    }
    return false
  }

  /// Whether the text of `string` is plain (``JSONSyntaxPass/isPlainText(_:)``), read with
  /// `pread` in chunks (no lock held); false when it cannot be read.
  private func checkText(_ string: JSONSyntaxPass.SetAside) -> Bool {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let chunk = 1 << 20
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 64)
    defer { buffer.deallocate() }
    var position = string.offset
    var left = string.length
    while left > 0 {
      let count = pread(descriptor, buffer.baseAddress, min(left, chunk), off_t(position))
      guard count > 0, JSONSyntaxPass.isPlainText(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else {
        return false
      }
      position += count
      left -= count
    }
    return true
  }

  /// Takes the first string nobody has started, if any (the lock held).
  private func claimNext() -> (number: Int, string: JSONSyntaxPass.SetAside)? {
    guard nextWaiting < endWaiting else { return nil }
    let number = nextWaiting
    nextWaiting += 1
    slots[number] = .started
    return (number, strings[number])
  }

  /// Takes the last string nobody has started, if any (the lock held). A string whose blob was
  /// checked by a read of its bytes ends the work: the writer's workers read the media front to
  /// back, so every string before it is theirs.
  ///
  /// The blob is looked at with the lock let go of: the reference to it taken here may be the
  /// last one, and letting go of a blob may end the ``Lease``, whose end takes the lock.
  private func claimLast() -> (number: Int, string: JSONSyntaxPass.SetAside)? {
    while !cancelled && nextWaiting < endWaiting {
      let number = endWaiting - 1
      if let attached = blobs[number] {
        condition.unlock()
        let pending = attached.blob?.hasPendingCheck ?? false
        condition.lock()
        // Another thread may have claimed strings meanwhile: look again.
        guard number == endWaiting - 1, case .waiting = slots[number] else { continue }
        guard pending else {
          endWaiting = nextWaiting
          return nil
        }
      }
      endWaiting -= 1
      slots[number] = .started
      return (number, strings[number])
    }
    return nil
  }

  /// Records the work on string `number` as done, and in its blob if it has one (the lock held;
  /// it is let go of while the blob is looked at and records it, as in ``claimLast()``).
  private func finish(_ number: Int, _ fingerprint: Fingerprint?) {
    slots[number] = .done(fingerprint)
    // Decoded: every byte was a base64 character, so the text is plain.
    if fingerprint != nil { knownPlain[number] = true }
    condition.broadcast()
    guard let attached = blobs.removeValue(forKey: number), let fingerprint else { return }
    condition.unlock()
    if let blob = attached.blob { Self.record(fingerprint, in: blob) }
    condition.lock()
  }

  /// Records `fingerprint` in `blob`, making its check; a blob whose declaration differs keeps
  /// its check, which whoever reads it then makes and reports.
  private static func record(_ fingerprint: Fingerprint, in blob: MediaBlob) {
    try? blob.recordComputed(sha1: fingerprint.sha1, size: fingerprint.size)
  }

  /// Decodes and hashes `string` (no lock held).
  private func compute(_ string: JSONSyntaxPass.SetAside) -> Fingerprint? {
    let source = Base64FileRangeSource(
      path: path, offset: string.offset, length: string.length, location: SourceLocation(file: path))
    return (try? MediaBlob(source: source).fingerprint()).map { Fingerprint(sha1: $0.sha1, size: $0.size) }
  }
}

extension MediaPrecheck {
  /// A blob handed over, not kept alive by the handing over.
  private struct WeakBlob {
    weak var blob: MediaBlob?
  }

  /// Keeps the thread's work wanted while something holds it: the checks of the blobs a
  /// deferring reader hands over hold it, so the thread is cancelled once none of them is left
  /// to make (all made, or the collection let go of).
  final class Lease: @unchecked Sendable {
    private let precheck: MediaPrecheck

    init(_ precheck: MediaPrecheck) { self.precheck = precheck }

    deinit { precheck.cancel() }
  }
}
