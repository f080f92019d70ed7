import DeckCore
import Foundation

/// Remembers every phase a ``ProgressReporter`` reported, from any thread.
///
/// ```swift
/// let recorder = PhaseRecorder()
/// let reporter = ProgressReporter(minimumInterval: 0) { recorder.record($0) }
/// ```
public final class PhaseRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var seen = Set<ConversionPhase>()

  /// Creates an empty recorder.
  public init() {}

  /// Adds the phases of one update.
  public func record(_ progress: [ConversionProgress]) {
    lock.lock()
    seen.formUnion(progress.map(\.phase))
    lock.unlock()
  }

  /// Every phase reported so far.
  public var phases: Set<ConversionPhase> {
    lock.lock()
    defer { lock.unlock() }
    return seen
  }
}
