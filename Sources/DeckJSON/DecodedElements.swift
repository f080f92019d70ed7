import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The notes, cards and reviews the syntax pass decoded, by index (nil where it only checked
/// the element). The reader takes them in order, and they are let go of a chunk at a time as it
/// does, so that the decoded elements and the model made from them are not held whole at once.
///
/// The pass decodes ahead only until the elements it decoded came from 48 MB of JSON text (the
/// budget): it decodes a whole array before the reader takes its first element, so a larger
/// document would be held decoded whole; past the budget the pass only checks the elements and
/// the reader decodes each from its bytes as it maps it. The large benchmark deck (20,000 notes,
/// 31 MB of such text) is decoded whole during the pass; a 1,000,000-note JSON → apkg peaks at
/// 963 MiB with the budget against 1,146 MiB without it.
///
/// Each chunk lives in memory mapped for it alone, which goes back to the system when the chunk
/// is let go of: from the C library's heap it would stay counted in the process's memory while
/// the package is written (13 MB more at the peak for the huge deck).
final class DecodedElements {
  private var notes = Chunks<NoteJSON>()
  private var cards = Chunks<CardJSON>()
  private var reviews = Chunks<ReviewJSON>()
  /// The field names of the last note decoded (see ``JSONElementDecoder``).
  var fieldNames: [String] = []
  /// The bytes of JSON text the decoded elements came from.
  private var decodedTextBytes = 0
  /// How many bytes of JSON text are decoded ahead at most.
  private let budgetBytes: Int
  /// The budget of a reader's pass (see the type's description).
  static let defaultBudgetBytes = 48 << 20

  /// Room for the elements decoded from up to `budgetBytes` of JSON text.
  init(budgetBytes: Int = DecodedElements.defaultBudgetBytes) {
    self.budgetBytes = budgetBytes
  }

  /// Whether the budget is spent: the pass then leaves every later element to the reader and
  /// records nothing more (an element never recorded is one not decoded).
  var isFull: Bool { decodedTextBytes >= budgetBytes }

  /// How many more bytes of JSON text the budget allows.
  var budgetLeft: Int { budgetBytes - decodedTextBytes }

  /// Records the next element of `section`, which took `textBytes` of JSON text: `element` when
  /// decoded, nil when only checked.
  func add(_ element: JSONElementDecoder.Element?, to section: DeckJSONReader.Section, textBytes: Int) {
    decodedTextBytes += textBytes
    switch (section, element) {
    case (.notes, .note(let note)): notes.append(note)
    case (.cards, .card(let card)): cards.append(card)
    case (.reviews, .review(let review)): reviews.append(review)
    case (.notes, _): notes.append(nil)
    case (.cards, _): cards.append(nil)
    case (.reviews, _): reviews.append(nil)
    }
  }

  /// How many elements of `section` the pass recorded (decoded, or only checked before its
  /// budget was spent): those from here on it left to the reader.
  func recordedCount(_ section: DeckJSONReader.Section) -> Int {
    switch section {
    case .notes: notes.count
    case .cards: cards.count
    case .reviews: reviews.count
    }
  }

  /// Note `index`, if the pass decoded it; each is given once.
  func takeNote(_ index: Int) -> NoteJSON? { notes.take(index) }
  /// Card `index`, if the pass decoded it; each is given once.
  func takeCard(_ index: Int) -> CardJSON? { cards.take(index) }
  /// Review `index`, if the pass decoded it; each is given once.
  func takeReview(_ index: Int) -> ReviewJSON? { reviews.take(index) }

  /// Elements in chunks of a fixed count; a chunk is let go of when its last element is taken.
  private struct Chunks<Element> {
    private var chunks: [Chunk<Element>?] = []
    private static var size: Int { 4096 }

    /// How many were appended.
    private(set) var count = 0

    mutating func append(_ element: Element?) {
      if chunks.isEmpty || chunks[chunks.count - 1]?.count == Self.size {
        chunks.append(Chunk(capacity: Self.size))
      }
      chunks[chunks.count - 1]?.append(element)
      count += 1
    }

    mutating func take(_ index: Int) -> Element? {
      let (number, offset) = index.quotientAndRemainder(dividingBy: Self.size)
      guard chunks.indices.contains(number), let chunk = chunks[number] else { return nil }
      let element = chunk.take(offset)
      if offset == Self.size - 1 { chunks[number] = nil }
      return element
    }
  }

  /// Room for `capacity` elements in pages mapped for it (or from the heap if mapping fails).
  private final class Chunk<Element> {
    private let base: UnsafeMutablePointer<Element?>
    private let byteCount: Int
    private let isMapped: Bool
    private let capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
      self.capacity = capacity
      byteCount = capacity * MemoryLayout<Element?>.stride
      let address = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
      if let address, address != MAP_FAILED {
        base = address.bindMemory(to: Element?.self, capacity: capacity)
        isMapped = true
      } else {
        base = .allocate(capacity: capacity)
        isMapped = false
      }
    }

    deinit {
      base.deinitialize(count: count)
      if isMapped {
        munmap(UnsafeMutableRawPointer(base), byteCount)
      } else {
        base.deallocate()
      }
    }

    func append(_ element: Element?) {
      guard count < capacity else { return }
      (base + count).initialize(to: element)
      count += 1
    }

    /// Element `offset`, left nil behind.
    func take(_ offset: Int) -> Element? {
      guard offset >= 0, offset < count else { return nil }
      let element = base[offset]
      base[offset] = nil
      return element
    }
  }
}
