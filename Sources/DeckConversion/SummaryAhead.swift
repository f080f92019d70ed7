import DeckCore
import DeckIO
import Foundation

/// The summary of a written deck, made on another thread while the writer still writes the file
/// when the writer tells what it writes before it has finished (``FormatWriteContext``'s
/// `announceWritten`). A package writer knows its notes long before its database is built and
/// compressed; the summary's media scans then cost the conversion nothing.
final class SummaryAhead: @unchecked Sendable {
  private let lock = NSLock()
  private var work: BackgroundWork<DeckSummary>?
  private let formatName: String

  /// A summary to be made of a deck written as `formatName`.
  init(formatName: String) {
    self.formatName = formatName
  }

  /// Starts summarising `written`; a second call is ignored.
  func start(_ written: DeckCollection) {
    lock.lock()
    defer { lock.unlock() }
    guard work == nil else { return }
    let formatName = formatName
    work = BackgroundWork { DeckSummary(LoadedDeck(collection: written, formatName: formatName, warnings: [])) }
  }

  /// The summary of `written` with `warnings`: the one started, or, when the writer did not
  /// announce what it writes, one made now.
  func summary(of written: LoadedDeck) -> DeckSummary {
    lock.lock()
    let started = work
    lock.unlock()
    // The work throws nothing, and it is waited for once (the only other way `wait` throws).
    guard let started, var summary = try? started.wait() else { return DeckSummary(written) }
    summary.warnings = written.warnings
    return summary
  }
}
