import Foundation

/// One step of a conversion that can take a while, as a progress display names it.
public enum ConversionPhase: String, Sendable, CaseIterable {
  /// Unpacking the collection database from a package (counts bytes).
  case unpackingCollection
  /// Reading notes (counts notes).
  case readingNotes
  /// Reading cards (counts cards).
  case readingCards
  /// Reading the review log (counts reviews).
  case readingReviews
  /// Checking the syntax of a JSON document (counts bytes).
  case checkingJSON
  /// Checking media files against their declared SHA-1 and size (counts files).
  case checkingMedia
  /// Writing notes (counts notes).
  case writingNotes
  /// Writing cards (counts cards).
  case writingCards
  /// Writing the review log (counts reviews).
  case writingReviews
  /// Compressing the collection database (counts permille of it).
  case compressingCollection
  /// Copying media files into the output (counts files).
  case copyingMedia
  /// Writing the package file itself (counts permille of the archive).
  case writingPackage
  /// Converting many files, one after another or several at once (counts files).
  case convertingFiles

  /// What the phase is doing, as a display shows it: `Reading notes`.
  public var label: String {
    switch self {
    case .unpackingCollection: "Unpacking the collection"
    case .readingNotes: "Reading notes"
    case .readingCards: "Reading cards"
    case .readingReviews: "Reading the review log"
    case .checkingJSON: "Checking the JSON"
    case .checkingMedia: "Checking media"
    case .writingNotes: "Writing notes"
    case .writingCards: "Writing cards"
    case .writingReviews: "Writing the review log"
    case .compressingCollection: "Compressing the collection"
    case .copyingMedia: "Copying media"
    case .writingPackage: "Writing the package"
    case .convertingFiles: "Converting files"
    }
  }

  /// What the counts count.
  public var unit: ConversionProgress.Unit {
    switch self {
    case .unpackingCollection, .checkingJSON: .bytes
    case .checkingMedia, .copyingMedia, .convertingFiles: .files
    case .compressingCollection, .writingPackage: .permille
    case .readingNotes, .readingCards, .readingReviews, .writingNotes, .writingCards, .writingReviews:
      .items
    }
  }
}

/// How far one phase of a conversion has come.
public struct ConversionProgress: Sendable, Equatable, CustomStringConvertible {
  /// What the counts of a phase count.
  public enum Unit: Sendable, Equatable {
    /// Notes, cards or reviews, as the phase says.
    case items
    /// Files.
    case files
    /// Bytes.
    case bytes
    /// Thousandths of the whole.
    case permille
  }

  /// The phase.
  public var phase: ConversionPhase
  /// How much of it is done.
  public var completed: Int64
  /// How much there is in all, when known.
  public var total: Int64?

  /// Creates a progress value.
  public init(phase: ConversionPhase, completed: Int64, total: Int64?) {
    self.phase = phase
    self.completed = completed
    self.total = total
  }

  /// `Reading notes 12,000/100,000`, `Copying media 35/400`, `Unpacking the collection 12 MB`,
  /// `Writing the package 42%`.
  public var description: String {
    switch phase.unit {
    case .permille:
      return "\(phase.label) \(completed / 10)%"
    case .bytes:
      let done = Self.megabytes(completed)
      guard let total, total > 0 else { return "\(phase.label) \(done) MB" }
      return "\(phase.label) \(done)/\(Self.megabytes(total)) MB"
    case .items, .files:
      guard let total else { return "\(phase.label) \(Self.grouped(completed))" }
      return "\(phase.label) \(Self.grouped(completed))/\(Self.grouped(total))"
    }
  }

  private static func megabytes(_ bytes: Int64) -> String {
    String(bytes / 1_000_000)
  }

  /// `12,345`: digits grouped by threes, the same in every locale.
  public static func grouped(_ number: Int64) -> String {
    let digits = String(number.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return number < 0 ? "-" + result : result
  }
}

/// Receives the progress of a conversion from the readers and writers, which may report from
/// more than one thread, and hands snapshots of every unfinished phase to `update`, at most
/// once per `minimumInterval` (so counting every note costs next to nothing).
///
/// ```swift
/// let reporter = ProgressReporter { phases in print(phases.map(\.description)) }
/// let deck = try DeckLoader().load(URL(filePath: "French.apkg"), progress: reporter)
/// reporter.close()
/// ```
///
/// Readers and writers take an optional reporter and say nothing when they have none.
public final class ProgressReporter: @unchecked Sendable {
  private let lock = NSLock()
  private let minimumInterval: TimeInterval
  private let update: @Sendable ([ConversionProgress]) -> Void
  /// The unfinished phases, in the order they started.
  private var active: [ConversionProgress] = []
  private var lastUpdate: TimeInterval = 0
  private var closed = false

  /// Creates a reporter that calls `update` with the unfinished phases (oldest first), at most
  /// once per `minimumInterval` seconds, and with an empty list once ``close()`` is called.
  public init(
    minimumInterval: TimeInterval = 0.1, _ update: @escaping @Sendable ([ConversionProgress]) -> Void
  ) {
    self.minimumInterval = minimumInterval
    self.update = update
  }

  /// Starts `phase` (again, if it ran before) at 0 of `total`.
  public func start(_ phase: ConversionPhase, total: Int64? = nil) {
    change(force: true) { active in
      active.removeAll { $0.phase == phase }
      active.append(ConversionProgress(phase: phase, completed: 0, total: total))
    }
  }

  /// Adds `count` to what `phase` has done.
  public func advance(_ phase: ConversionPhase, by count: Int64 = 1) {
    change(force: false) { active in
      if let index = active.firstIndex(where: { $0.phase == phase }) { active[index].completed += count }
    }
  }

  /// Sets what `phase` has done to `completed`.
  public func set(_ phase: ConversionPhase, completed: Int64) {
    change(force: false) { active in
      if let index = active.firstIndex(where: { $0.phase == phase }) { active[index].completed = completed }
    }
  }

  /// Ends `phase`.
  public func finish(_ phase: ConversionPhase) {
    change(force: true) { active in active.removeAll { $0.phase == phase } }
  }

  /// Ends every phase and tells `update` so (with an empty list); later reports are ignored.
  public func close() {
    lock.lock()
    guard !closed else {
      lock.unlock()
      return
    }
    closed = true
    active = []
    lock.unlock()
    update([])
  }

  /// The unfinished phases now.
  public var snapshot: [ConversionProgress] {
    lock.lock()
    defer { lock.unlock() }
    return active
  }

  private func change(force: Bool, _ body: (inout [ConversionProgress]) -> Void) {
    lock.lock()
    guard !closed else {
      lock.unlock()
      return
    }
    body(&active)
    let now = ProcessInfo.processInfo.systemUptime
    guard force || now - lastUpdate >= minimumInterval else {
      lock.unlock()
      return
    }
    lastUpdate = now
    let phases = active
    lock.unlock()
    update(phases)
  }
}
