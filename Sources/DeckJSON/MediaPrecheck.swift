import DeckCore
import DeckIO
import Foundation

/// Decodes and hashes each media string the syntax pass sets aside, on a second thread, while
/// the pass goes on and the notes, cards and reviews are read: the reader then only compares
/// each file's SHA-1 and size with what the document declares.
///
/// Strings are taken in the order the pass finds them, one at a time, decoded chunk by chunk
/// from the file, so memory does not grow with the media. A string that does not decode is
/// not reported from here: ``fingerprint(of:)`` returns nil for it and the reader decodes it
/// again itself, so every error is the reader's own, at its place and in its order.
final class MediaPrecheck: @unchecked Sendable {
  /// The SHA-1 and size of a decoded string.
  struct Fingerprint {
    var sha1: [UInt8]
    var size: Int64
  }

  private let path: String
  private let condition = NSCondition()
  /// The strings found so far, by set-aside number.
  private var strings: [JSONSyntaxPass.SetAside] = []
  /// The result for each string done so far, by set-aside number (nil when it did not decode).
  private var done: [Fingerprint?] = []
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

  /// The SHA-1 and size of set-aside string `number`, waiting for the thread to get to it;
  /// nil when it did not decode, was never queued, or the work was stopped.
  func fingerprint(of number: Int) -> Fingerprint? {
    condition.lock()
    defer { condition.unlock() }
    while done.count <= number && number < strings.count && !cancelled {
      condition.wait()
    }
    return number < done.count ? done[number] : nil
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
    while true {
      condition.lock()
      while done.count == strings.count && !complete && !cancelled {
        condition.wait()
      }
      guard !cancelled, done.count < strings.count else {
        condition.unlock()
        return
      }
      let string = strings[done.count]
      condition.unlock()
      let source = Base64FileRangeSource(
        path: path, offset: string.offset, length: string.length, location: SourceLocation(file: path))
      let fingerprint = try? MediaBlob(source: source).fingerprint()
      condition.lock()
      done.append(fingerprint.map { Fingerprint(sha1: $0.sha1, size: $0.size) })
      condition.broadcast()
      condition.unlock()
    }
  }
}
