import DeckCore
import Dispatch
import Foundation

/// Work started on another thread now, whose result (or error) is collected later with
/// ``wait()``: the package writer builds and compresses the collection database this way while
/// it prepares the media files, and the JSON reader checks media while it reads notes, using
/// both cores of a two-core machine.
package final class BackgroundWork<Result: Sendable>: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var outcome: Swift.Result<Result, any Error>?
  /// The work until it has run: let go of before ``wait()`` returns, so that what it holds
  /// (a scratch folder, say) is released by then, not whenever the thread ends.
  private var work: (@Sendable () throws -> Result)?
  private let scope: Cancellation.Scope?

  /// Starts `work` on a new thread, in the cancellation scope of the caller
  /// (``Cancellation/scope``).
  package init(_ work: @escaping @Sendable () throws -> Result) {
    self.work = work
    scope = Cancellation.scope
    let thread = Thread { [self] in
      let result = run()
      lock.lock()
      outcome = result
      lock.unlock()
      done.signal()
    }
    // Room for SQLite and zstd; the default for secondary threads is smaller than the main one.
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// Runs the work (the thread calls it once) and lets go of it before returning.
  private func run() -> Swift.Result<Result, any Error> {
    lock.lock()
    let taken = work
    work = nil
    lock.unlock()
    return Cancellation.$scope.withValue(scope) {
      Swift.Result {
        guard let taken else { throw CancellationError() }  // run twice: nothing left to run
        return try taken()
      }
    }
  }

  /// Waits for the work to end and returns its result, or throws its error. May be called
  /// more than once.
  package func wait() throws -> Result {
    lock.lock()
    if let outcome {
      lock.unlock()
      return try outcome.get()
    }
    lock.unlock()
    done.wait()
    done.signal()  // let a later call through as well
    lock.lock()
    defer { lock.unlock() }
    guard let outcome else { preconditionFailure("the background work signalled without a result") }
    return try outcome.get()
  }
}
