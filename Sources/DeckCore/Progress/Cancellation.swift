import Foundation

/// Where long work asks whether it is still wanted, so that a cancelled conversion stops within
/// moments, removes what it had written, and leaves no partial output.
///
/// Work is no longer wanted when the Swift task running it was cancelled, when the ``Scope``
/// it runs in was (an app's `async` call whose task was cancelled: the scope reaches the threads
/// the work starts), or when the whole process was asked to stop (``requestProcessStop(signal:)``:
/// the `deckport` command on SIGINT, SIGTERM or SIGHUP). Readers and writers call ``check()``
/// in their loops (every batch of rows, every media file, every few megabytes of a document)
/// and just before an output is renamed into place; it throws `CancellationError`, which
/// unwinds through the same paths as any failure, so temporary files and scratch folders are
/// removed on the way out.
package enum Cancellation {
  /// A flag that cancels the work running in it, on every thread it reaches.
  package final class Scope: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// A scope not cancelled yet.
    package init() {}

    /// Cancels the work running in this scope (at its next ``Cancellation/check()``).
    package func cancel() {
      lock.lock()
      cancelled = true
      lock.unlock()
    }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool {
      lock.lock()
      defer { lock.unlock() }
      return cancelled
    }
  }

  /// The scope the work on this thread or task runs in, if any. A thread the work starts binds
  /// its creator's scope (`Cancellation.$scope.withValue(scope) { … }`), so a cancellation
  /// reaches it.
  @TaskLocal package static var scope: Scope?

  private static let process = ProcessStop()

  /// Throws `CancellationError` when the work is no longer wanted (see ``isRequested``).
  package static func check() throws {
    if isRequested { throw CancellationError() }
  }

  /// ``check()`` once every 1,024 items of a loop: when `index` is a multiple of 1,024.
  package static func check(atItem index: Int) throws {
    if index & 1023 == 0 { try check() }
  }

  /// Whether the calling task, or the scope this code runs in, was cancelled, or the process is
  /// stopping.
  package static var isRequested: Bool {
    Task.isCancelled || scope?.isCancelled == true || process.signal != nil
  }

  /// Asks every piece of work in the process to stop at its next ``check()``; `signal` is the
  /// signal number that asked (the first one is kept).
  package static func requestProcessStop(signal: Int32) {
    process.request(signal)
  }

  /// The signal that asked the process to stop, if one did.
  package static var processStopSignal: Int32? { process.signal }

  /// The process-wide request, guarded by a lock (checked once per batch, not per byte).
  private final class ProcessStop: @unchecked Sendable {
    private let lock = NSLock()
    private var requested: Int32?

    var signal: Int32? {
      lock.lock()
      defer { lock.unlock() }
      return requested
    }

    func request(_ signal: Int32) {
      lock.lock()
      if requested == nil { requested = signal }
      lock.unlock()
    }
  }
}
