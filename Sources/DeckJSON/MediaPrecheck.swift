import DeckCore
import DeckIO
import Foundation

/// Decodes and hashes each media string the syntax pass sets aside, on a second thread, while
/// the pass goes on and the notes, cards and reviews are read: the reader then only compares
/// each file's SHA-1 and size with what the document declares.
///
/// Strings are taken in the order the pass finds them, one at a time, decoded chunk by chunk
/// from the file, so memory does not grow with the media. A reader that asks for a string not
/// done yet takes the next string nobody has started and does it itself while it waits, so the
/// two threads share what is left. A string that does not decode is not reported from here:
/// ``fingerprint(of:)`` returns nil for it and the reader decodes it again itself, so every
/// error is the reader's own, at its place and in its order.
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
  /// The first string nobody has started.
  private var nextWaiting = 0
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

  /// The SHA-1 and size of set-aside string `number` if its work is done; nil while it is not,
  /// or when it did not decode. Nothing is waited for.
  func fingerprintIfDone(of number: Int) -> Fingerprint? {
    condition.lock()
    defer { condition.unlock() }
    guard slots.indices.contains(number), case .done(let fingerprint) = slots[number] else { return nil }
    return fingerprint
  }

  /// Stops the thread after the string it is on and waits for it to end.
  func stop() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
    _ = try? work?.wait()
  }

  private func run() {
    condition.lock()
    defer { condition.unlock() }
    while !cancelled {
      if let (claimed, string) = claimNext() {
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

  /// Takes the first string nobody has started, if any (the lock held).
  private func claimNext() -> (number: Int, string: JSONSyntaxPass.SetAside)? {
    guard nextWaiting < strings.count else { return nil }
    let number = nextWaiting
    nextWaiting += 1
    slots[number] = .started
    return (number, strings[number])
  }

  /// Records the work on string `number` as done (the lock held).
  private func finish(_ number: Int, _ fingerprint: Fingerprint?) {
    slots[number] = .done(fingerprint)
    condition.broadcast()
  }

  /// Decodes and hashes `string` (no lock held).
  private func compute(_ string: JSONSyntaxPass.SetAside) -> Fingerprint? {
    let source = Base64FileRangeSource(
      path: path, offset: string.offset, length: string.length, location: SourceLocation(file: path))
    return (try? MediaBlob(source: source).fingerprint()).map { Fingerprint(sha1: $0.sha1, size: $0.size) }
  }
}
