import Dispatch

/// Lets go of a value on another thread: freeing a large deck's notes and cards (a tenth of a
/// second for 300,000 of them) need not hold up whoever is done with it.
///
/// ```swift
/// BackgroundRelease.release(consume deck)
/// ```
package enum BackgroundRelease {
  /// Lets go of `value` on a background queue. The memory it holds is freed there when nothing
  /// else holds it: pass it with `consume`, so that the caller's binding does not.
  package static func release<Value>(_ value: consuming Value) {
    let box = Box(value)
    DispatchQueue.global(qos: .utility).async { box.empty() }
  }

  /// The value until the queue empties it: whichever thread lets go of the box last, the value
  /// is let go of where it is emptied.
  private final class Box<Held>: @unchecked Sendable {
    private var held: Held?

    init(_ held: consuming Held) { self.held = held }

    func empty() { held = nil }
  }
}
