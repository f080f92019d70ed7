import DeckCore
import DeckIO
import Foundation

extension AnkiPackageReader {
  /// Limits on what the reader unpacks from a package, so that a decompression bomb (a small
  /// file that inflates to terabytes) ends with an error instead of filling the disk.
  ///
  /// Two limits apply at once:
  /// * **relative**: everything unpacked from a package (its collection database and every
  ///   media file, each counted once however often it is read) may come to at most
  ///   ``expansionRatio`` times the package's own size, or ``expansionAllowance`` when that is
  ///   more (a small package of a sparse collection may inflate a lot);
  /// * **absolute**: at most ``collectionBytes`` for the collection, ``mediaFileBytes`` for one
  ///   media file and ``totalBytes`` in all, whatever the package's size.
  ///
  /// Real decks stay far below both: collections compress some 3–10 times, and media (already
  /// compressed images and sounds) hardly at all.
  public struct Limits: Sendable, Equatable {
    /// The default ratio: a package may unpack to 100 times its size.
    public static let defaultExpansionRatio: Int64 = 100
    /// The default allowance: any package may unpack to 1 GB.
    public static let defaultExpansionAllowance: Int64 = 1 << 30
    /// The default absolute limit on everything unpacked from one package: 64 GiB.
    public static let defaultTotalBytes: Int64 = 64 << 30

    /// The largest collection database unpacked, in bytes.
    public var collectionBytes: Int64
    /// The largest single media file unpacked, in bytes.
    public var mediaFileBytes: Int64
    /// The most unpacked from one package in all, in bytes.
    public var totalBytes: Int64
    /// How many times its own size a package may unpack to.
    public var expansionRatio: Int64
    /// What any package may unpack to, however small it is, in bytes.
    public var expansionAllowance: Int64

    /// Creates limits; the defaults allow any deck people actually have.
    public init(
      collectionBytes: Int64 = 16 << 30, mediaFileBytes: Int64 = 8 << 30,
      totalBytes: Int64 = defaultTotalBytes, expansionRatio: Int64 = defaultExpansionRatio,
      expansionAllowance: Int64 = defaultExpansionAllowance
    ) {
      self.collectionBytes = collectionBytes
      self.mediaFileBytes = mediaFileBytes
      self.totalBytes = totalBytes
      self.expansionRatio = expansionRatio
      self.expansionAllowance = expansionAllowance
    }

    /// Limits whose absolute parts (collection, media file, total) are all `bytes`, with the
    /// default ratio and allowance.
    public static func absolute(_ bytes: Int64) -> Limits {
      Limits(collectionBytes: bytes, mediaFileBytes: bytes, totalBytes: bytes)
    }

    /// What a package of `packageBytes` may unpack to in all: the relative limit, within the
    /// absolute one.
    public func budget(packageBytes: Int64) -> Int64 {
      let (relative, overflow) = max(packageBytes, 0).multipliedReportingOverflow(by: max(expansionRatio, 1))
      return min(totalBytes, max(expansionAllowance, overflow ? Int64.max : relative))
    }
  }
}

/// Counts what is unpacked from one package against its budget
/// (`AnkiPackageReader/Limits/budget(packageBytes:)`), from every thread that reads it.
///
/// Each member counts once, at the most any one read of it produced, so reading a media file
/// twice (to check it, then to copy it) does not count it twice.
final class UnpackBudget: @unchecked Sendable {
  /// The most the package may unpack to.
  let limit: Int64
  /// The package's size, for messages.
  let packageBytes: Int64
  /// The package's limits, for messages.
  let limits: AnkiPackageReader.Limits
  private let lock = NSLock()
  private var perMember: [String: Int64] = [:]
  private var total: Int64 = 0

  init(limits: AnkiPackageReader.Limits, packageBytes: Int64) {
    self.limits = limits
    self.packageBytes = packageBytes
    self.limit = limits.budget(packageBytes: packageBytes)
  }

  /// Whether what was unpacked has passed the budget (``account(member:produced:at:)`` threw).
  var isExceeded: Bool {
    lock.lock()
    defer { lock.unlock() }
    return total > limit
  }

  /// Records that a read of `member` has produced `produced` bytes so far.
  ///
  /// - Throws: ``DeckError/Kind/limitExceeded`` at `location` when the package's total would
  ///   pass the budget.
  func account(member: String, produced: Int64, at location: SourceLocation) throws {
    lock.lock()
    let previous = perMember[member] ?? 0
    guard produced > previous else { return lock.unlock() }
    perMember[member] = produced
    total += produced - previous
    let exceeded = total > limit
    lock.unlock()
    if exceeded { throw exceededError(at: location) }
  }

  /// Checks that `declared` bytes (what the package's directory or media map says its members
  /// hold) fit the budget, before anything is unpacked.
  func check(declared: Int64, what: String, at location: SourceLocation) throws {
    guard declared > limit else { return }
    throw DeckError(
      .limitExceeded, at: location,
      "\(what) \(ByteCount.text(declared)) unpacked, more than this package may unpack to (\(explanation))",
      details: ["declared: \(declared) bytes"] + numbers)
  }

  func exceededError(at location: SourceLocation) -> DeckError {
    DeckError(
      .limitExceeded, at: location,
      "unpacks to more than this package may unpack to (\(explanation)); a decompression bomb or a damaged package",
      details: numbers)
  }

  /// The exact figures behind a refusal.
  private var numbers: [String] {
    [
      "package: \(packageBytes) bytes; may unpack to \(limit) bytes",
      "limits: ratio \(limits.expansionRatio), allowance \(limits.expansionAllowance) bytes, total \(limits.totalBytes) bytes, collection \(limits.collectionBytes) bytes, media file \(limits.mediaFileBytes) bytes",
    ]
  }

  /// `64 GB in all` when the absolute limit is the one in force, else `1 GB: 100 times the
  /// package's 12 KB, at least 1 GB`.
  private var explanation: String {
    let (product, overflow) = max(packageBytes, 0).multipliedReportingOverflow(by: max(limits.expansionRatio, 1))
    let relative = max(limits.expansionAllowance, overflow ? Int64.max : product)
    if limit < relative { return "\(ByteCount.text(limit)) in all" }
    return
      "\(ByteCount.text(limit)): \(limits.expansionRatio) times the package's \(ByteCount.text(packageBytes)), at least \(ByteCount.text(limits.expansionAllowance))"
  }
}

/// A ``ByteSource`` that counts what it yields against the package's ``UnpackBudget``.
struct BudgetedByteSource<Source: ByteSource>: ByteSource {
  var source: Source
  let budget: UnpackBudget
  let member: String
  let location: SourceLocation
  private var produced: Int64 = 0

  init(_ source: Source, budget: UnpackBudget, member: String, location: SourceLocation) {
    self.source = source
    self.budget = budget
    self.member = member
    self.location = location
  }

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = try source.read(into: buffer)
    produced += Int64(count)
    try budget.account(member: member, produced: produced, at: location)
    return count
  }
}
