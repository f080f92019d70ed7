import DeckCore
import DeckIO
import Foundation

/// Decodes, on a second thread, the notes, cards and reviews the syntax pass left undecoded
/// (those past its budget, ``DecodedElements``), a chunk at a time, while the reader maps them
/// into the model in order: the two threads share the decoding.
///
/// The elements left are cut into chunks of ``chunkLength``, taken in order by whichever thread
/// comes to them first: the reader, reaching a chunk nobody has taken, decodes it itself as it
/// maps it; this thread takes the next chunk nobody has taken, but never more than
/// ``chunksAhead`` chunks past the reader's, so that what is held decoded stays bounded. An
/// element this thread is not sure of (``JSONElementDecoder`` returns nil) is left nil, and the
/// reader decodes it (and reports its problem) itself, as it does every element. The thread
/// reads the elements as checked when the pass checked them, else (`unchecked`) checks them as
/// it decodes them, as the reader does.
final class LeftElementsDecoding: @unchecked Sendable {
  /// The elements in a chunk.
  static let chunkLength = 512
  /// How many chunks past the reader's the thread may decode.
  static let chunksAhead = 16

  private struct Chunk {
    var section: DeckJSONReader.Section
    var indices: Range<Int>
  }

  private enum Owner {
    case reader
    case thread
    /// Decoded by the thread: its elements, in order.
    case done([JSONElementDecoder.Element?])
  }

  private let file: MappedFile
  /// Whether the pass passed the elements over unchecked.
  private let unchecked: Bool
  private let ranges: [DeckJSONReader.Section: JSONSyntaxPass.Elements]
  private let chunks: [Chunk]
  /// The first chunk of each section, by section.
  private let firstChunk: [DeckJSONReader.Section: Int]
  private let condition = NSCondition()
  private var owners: [Int: Owner] = [:]
  /// The first chunk nobody has taken.
  private var nextFree = 0
  /// The chunk the reader is on.
  private var readerChunk = 0
  private var stopped = false
  /// How many chunks the thread has decoded.
  private var chunksDone = 0
  private var work: BackgroundWork<Void>?

  /// Starts the thread on the elements of `file` that the pass left: of each section, those from
  /// `leftFrom[section]` on, at the places `elements` gives; checked by the pass, or `unchecked`.
  init(
    file: MappedFile, elements: [DeckJSONReader.Section: JSONSyntaxPass.Elements],
    leftFrom: [DeckJSONReader.Section: Int], unchecked: Bool
  ) {
    self.file = file
    self.unchecked = unchecked
    ranges = elements
    var chunks: [Chunk] = []
    var firstChunk: [DeckJSONReader.Section: Int] = [:]
    for section in DeckJSONReader.Section.allCases {
      guard let count = elements[section]?.count, let first = leftFrom[section], first < count else { continue }
      firstChunk[section] = chunks.count
      for start in stride(from: first, to: count, by: Self.chunkLength) {
        chunks.append(Chunk(section: section, indices: start..<min(start + Self.chunkLength, count)))
      }
    }
    self.chunks = chunks
    self.firstChunk = firstChunk
    if !chunks.isEmpty { work = BackgroundWork { [self] in run() } }
  }

  /// How many chunks the thread has decoded so far.
  var chunksDecodedByThread: Int {
    condition.lock()
    defer { condition.unlock() }
    return chunksDone
  }

  /// Stops the thread after the chunk it is on and waits for it.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
    _ = try? work?.wait()
  }

  /// Note `index` if this thread decoded it (see ``take(_:_:)``).
  func takeNote(_ index: Int) -> NoteJSON? {
    guard case .note(let note) = take(.notes, index) else { return nil }
    return note
  }

  /// Card `index` if this thread decoded it (see ``take(_:_:)``).
  func takeCard(_ index: Int) -> CardJSON? {
    guard case .card(let card) = take(.cards, index) else { return nil }
    return card
  }

  /// Review `index` if this thread decoded it (see ``take(_:_:)``).
  func takeReview(_ index: Int) -> ReviewJSON? {
    guard case .review(let review) = take(.reviews, index) else { return nil }
    return review
  }

  /// Element `index` of `section` if this thread decoded it; nil when it was not left by the
  /// pass, or the reader is to decode it. Called by the reader for each element of each
  /// section the pass left elements of, from the first it left, in order.
  func take(_ section: DeckJSONReader.Section, _ index: Int) -> JSONElementDecoder.Element? {
    guard let first = firstChunk[section], let start = chunks[first].indices.first, index >= start else { return nil }
    let number = first + (index - start) / Self.chunkLength
    let offset = (index - start) % Self.chunkLength
    condition.lock()
    defer { condition.unlock() }
    if offset == 0 {
      readerChunk = number
      if number >= nextFree {
        // Nobody has taken it: the reader decodes it.
        owners[number] = .reader
        nextFree = number + 1
      }
      condition.broadcast()
    }
    while case .thread = owners[number] { condition.wait() }
    guard case .done(let elements) = owners[number] else { return nil }
    if offset == elements.count - 1 { owners[number] = nil }
    return elements[offset]
  }

  private func run() {
    condition.lock()
    while !stopped && nextFree < chunks.count {
      if nextFree > readerChunk + Self.chunksAhead {
        condition.wait()
        continue
      }
      let number = nextFree
      nextFree += 1
      owners[number] = .thread
      condition.unlock()
      let chunk = chunks[number]
      var decoded: [JSONElementDecoder.Element?] = []
      decoded.reserveCapacity(chunk.indices.count)
      var fieldNames: [String] = []
      if let elements = ranges[chunk.section] {
        for index in chunk.indices {
          let bytes = UnsafeRawBufferPointer(rebasing: file.bytes[elements.range(index)])
          decoded.append(
            unchecked
              ? JSONElementDecoder.element(chunk.section, unchecked: bytes, fieldNames: &fieldNames)
              : JSONElementDecoder.element(chunk.section, checked: bytes, fieldNames: &fieldNames))
        }
      }
      condition.lock()
      owners[number] = .done(decoded)
      chunksDone += 1
      condition.broadcast()
    }
    condition.unlock()
  }
}
