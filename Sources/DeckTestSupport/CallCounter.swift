import Foundation

/// Counts calls made from any thread: how often a check ran, a source was opened.
public final class CallCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  /// A counter at zero.
  public init() {}

  /// Counts one call.
  public func add() {
    lock.lock()
    value += 1
    lock.unlock()
  }

  /// The calls counted so far.
  public var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
