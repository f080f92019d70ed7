import DeckCore
import DeckIO
import Foundation

/// Reads a deckport JSON deck document into the shared model.
///
/// ```swift
/// let (collection, warnings) = try DeckJSONReader().read(path: "French.json")
/// ```
///
/// The file is mapped, not loaded, and its pages are let go of as the reader passes them; media
/// data stays in the file and is decoded when a blob is read. Notes, cards and reviews are
/// decoded one at a time, never as one document: by the syntax pass as it meets them, up to a
/// budget of JSON text, and the rest by the reader as it maps them; each is let go of once it is
/// mapped into the model (``DecodedElements``), so memory follows the deck's model and not the
/// file's size. A second thread shares the decoding: the second half of each array during the
/// pass (``SecondHalfDecoding``), and a chunk at a time of what the pass left
/// (``LeftElementsDecoding``). Every declared SHA-1 and size is checked against the data while
/// reading: each media string is decoded and hashed on a second thread as soon as the syntax
/// pass has found it (``MediaPrecheck``); or, with ``defersMediaChecks``, by that thread or
/// whoever first reads the media.
///
/// Two shortcuts spare the pass reading what is checked anyway. It does not read a media string
/// whose entry declares its size first: it takes the length from the size, and the second
/// thread checks the text. Past its budget it does not check the elements it leaves, only
/// finds where each ends: they are checked as they are decoded. When either check fails, or
/// anything else goes wrong on the way (a problem in an unchecked element would have come
/// first), the reader reads the whole document again without them, so what is accepted and
/// every error are those of reading every byte.
package struct DeckJSONReader: Sendable {
  /// Where the reader reports what it is doing (checking the JSON, reading notes, cards and
  /// reviews, checking media), or nil.
  package var progress: ProgressReporter?

  /// Whether notes, cards and reviews are decoded one at a time (false decodes the document
  /// whole, as the tests compare).
  package var splitsArrays = true
  /// Whether the syntax pass takes the length of a media `data` string from the `size` its
  /// entry declares before it, not reading the string (``JSONSyntaxPass``), the text being
  /// checked on the second thread instead (the tests compare with reading every byte).
  var takesDeclaredLengths = true
  /// Whether the syntax pass only finds where the elements it leaves past its budget end, their
  /// check left to their decoding (``JSONSyntaxPass``'s `skimmingElement`); the tests compare
  /// with checking them in the pass.
  var skimsPastBudget = true
  /// Whether a second thread decodes some of those elements: the second half of each array
  /// during the syntax pass (``SecondHalfDecoding``), and a share of what the pass left past its
  /// budget while the reader maps it (``LeftElementsDecoding``). The tests compare with one thread.
  var decodesOnSecondThread = true
  /// How many bytes of JSON text the syntax pass decodes elements from ahead of the reader
  /// (``DecodedElements``); the tests make it small.
  package var decodingBudgetBytes = DecodedElements.defaultBudgetBytes
  /// Whether the media data left in the file is checked against its declared SHA-1 and size
  /// (and as base64) when it is first read whole rather than while reading
  /// (``MediaBlob/init(source:checkedOnRead:)``): a conversion's writer then decodes and hashes
  /// each file once. The caller must call ``DeckCollection/checkPendingMedia()`` before it keeps
  /// what it wrote.
  package var defersMediaChecks = false
  /// With ``defersMediaChecks``: whether the reader waits for the second thread's result for
  /// every file instead of taking only what it has done (the tests make the results certain).
  var waitsForPrecheck = false

  /// Creates a reader.
  package init(progress: ProgressReporter? = nil) {
    self.progress = progress
  }

  /// Reads the document at `path`.
  ///
  /// - Throws: ``DeckError``: invalid JSON with its line and column; a document of the wrong
  ///   shape with the JSON path of the first problem and what was expected there; an unknown
  ///   format version by number; media whose data does not match its SHA-1 or size.
  package func read(path: String) throws -> (collection: DeckCollection, warnings: [Diagnostic]) {
    let read = try reading(path: path)
    return (read.collection, read.warnings)
  }

  /// What a reading gives: the collection, the warnings, and the ids of the notes that give no
  /// modification time (each has the file's).
  package typealias Reading = (collection: DeckCollection, warnings: [Diagnostic], notesTimedByFile: Set<Int64>)

  /// Reads the document at `path` (see ``read(path:)``), telling which notes have the file's time.
  package func reading(path: String) throws -> Reading {
    do {
      return try read(
        path: path,
        shortcuts: Shortcuts(
          declaredLengths: takesDeclaredLengths && splitsArrays, skimming: skimsPastBudget && splitsArrays))
    } catch is ShortcutFailed {
      // What the pass took on trust is not what reading it would have found: read it all (the
      // abandoned reading's phase ends, and the new one starts it again).
      progress?.finish(.checkingJSON)
      return try read(path: path, shortcuts: Shortcuts(declaredLengths: false, skimming: false))
    }
  }

  /// What a reading takes on trust, to be checked before anything it read is kept (see the
  /// type's description).
  private struct Shortcuts {
    /// Media strings are taken at the length their entries declare.
    var declaredLengths: Bool
    /// The elements the pass leaves past its budget are passed over unchecked.
    var skimming: Bool
  }

  /// Thrown when what a reading took on trust does not hold, or may not: a media string taken
  /// at its declared length is not plain text (``JSONSyntaxPass/isPlainText(_:)``), an element
  /// passed over is not one the fast decoder accepts, or the reading failed after the pass
  /// passed an element over. Nothing read can be kept, and no problem reported.
  private struct ShortcutFailed: Error {}

  /// Reads the document at `path`, taking the `shortcuts`: before anything read is kept (or a
  /// problem reported) what they took on trust is checked, and ``ShortcutFailed`` thrown if it
  /// does not hold.
  private func read(path: String, shortcuts: Shortcuts) throws -> Reading {
    // Media strings are decoded and hashed on a second thread from the moment the pass finds them.
    let precheck = splitsArrays ? MediaPrecheck(path: path) : nil
    // Left running when media checks are deferred: it goes on hashing for the writer.
    var precheckHandedOver = false
    defer { if !precheckHandedOver { precheck?.stop() } }
    let checksLengths = shortcuts.declaredLengths && precheck != nil
    do {
      let read = try readOnce(
        path: path, precheck: precheck,
        shortcuts: Shortcuts(declaredLengths: checksLengths, skimming: shortcuts.skimming))
      if checksLengths, precheck?.declaredLengthsHold() == false { throw ShortcutFailed() }
      precheckHandedOver = read.handsOverPrecheck
      return read.result
    } catch let error where !(error is ShortcutFailed) {
      if checksLengths, precheck?.declaredLengthsHold() == false { throw ShortcutFailed() }
      throw error
    }
  }

  /// One reading of the document at `path` (see ``read(path:shortcuts:)``), and whether
  /// `precheck` is to be left running for the writer.
  private func readOnce(path: String, precheck: MediaPrecheck?, shortcuts: Shortcuts) throws -> (
    result: Reading, handsOverPrecheck: Bool
  ) {
    let location = SourceLocation(file: path)
    let file = try MappedFile(path: path, location: location)
    // Whatever came of the reading, it is not the file's if the file changed under the mapping.
    do {
      let read = try readOnce(file: file, path: path, location: location, precheck: precheck, shortcuts: shortcuts)
      try file.requireUnchanged()
      return read
    } catch {
      try file.requireUnchanged()
      throw error
    }
  }

  /// ``readOnce(path:precheck:shortcuts:)`` from the mapped `file`.
  private func readOnce(
    file: MappedFile, path: String, location: SourceLocation, precheck: MediaPrecheck?, shortcuts: Shortcuts
  ) throws -> (result: Reading, handsOverPrecheck: Bool) {
    progress?.start(.checkingJSON, total: Int64(file.bytes.count))
    // Notes, cards and reviews are decoded by the pass as it meets them, up to a budget.
    let decoded = DecodedElements(budgetBytes: decodingBudgetBytes)
    // The second half of each array is decoded on a second thread while the pass does the first.
    let secondHalf = splitsArrays && decodesOnSecondThread ? SecondHalfDecoding(file: file) : nil
    defer { secondHalf?.stop() }
    let sections = Section.allCases
    // Whether the pass passed an element over unchecked (see `Shortcuts.skimming`).
    var passedOver = false
    var syntax: JSONSyntaxPass
    do {
      syntax = try JSONSyntaxPass(
        bytes: file.bytes, location: location, splitting: splitsArrays ? Section.allCases.map(\.key) : [],
        reached: { [progress] offset in
          try Cancellation.check()
          progress?.set(.checkingJSON, completed: Int64(offset))
          file.release(below: offset - (1 << 20))
        }, settingAside: { precheck?.add($0) },
        decodingElement: { key, bytes, start in
          guard !decoded.isFull else { return nil }
          let found = JSONElementDecoder.element(sections[key], in: bytes, at: start, fieldNames: &decoded.fieldNames)
          decoded.add(found?.element, to: sections[key], textBytes: (found?.end ?? start) - start)
          return found?.end
        },
        decodedAhead: { key, start in
          guard let secondHalf, !decoded.isFull,
            let ahead = secondHalf.take(sections[key], at: start, budgetBytes: decoded.budgetLeft)
          else { return nil }
          for element in ahead { decoded.add(element.element, to: sections[key], textBytes: element.range.count) }
          return ahead.map(\.range)
        },
        skimmingElement: { _ in
          // What the pass leaves past its budget is decoded later anyway, and checked then.
          guard shortcuts.skimming, decoded.isFull else { return false }
          passedOver = true
          return true
        }, takingDeclaredLengths: shortcuts.declaredLengths)
      secondHalf?.stop()
      precheck?.finishAdding()
      progress?.finish(.checkingJSON)
      file.releaseAll()
      if splitsArrays && syntax.canSplit {
        do {
          let read = try readSplit(
            syntax: syntax, decoded: decoded, leftUnchecked: passedOver, precheck: precheck, file: file, path: path,
            location: location)
          return (read, defersMediaChecks && !waitsForPrecheck)
        } catch is NeedsWholeDocument {
          // Fall through: the document must be judged whole.
        }
      }
    } catch let error where passedOver && !(error is ShortcutFailed) && !(error is CancellationError) {
      // A problem in an element passed over unchecked would come first: read it all.
      throw ShortcutFailed()
    }
    if splitsArrays {
      // A document whose parts cannot be judged apart: decode it whole, as before.
      precheck?.stop()
      syntax = try JSONSyntaxPass(
        bytes: file.bytes, location: location,
        reached: { offset in
          try Cancellation.check()
          file.release(below: offset - (1 << 20))
        })
      file.releaseAll()
    }
    let reduced = Data(syntax.reduced)
    try checkFormat(reduced, location: location)
    let document: DeckJSONDocument
    do {
      document = try JSONDecoder().decode(DeckJSONDocument.self, from: reduced)
    } catch let error as DecodingError {
      throw DecodingErrorMessage.deckError(error, location: location, json: reduced)
    }
    let unknownKeys = try reduced.withUnsafeBytes {
      try UnknownKeys().warnings(in: $0, decoded: document, path: "", location: location)
    }
    progress?.start(.checkingMedia, total: Int64(document.media?.count ?? 0))
    defer { progress?.finish(.checkingMedia) }
    let read = try mediaMapping(syntax: syntax, precheck: nil, path: path, location: location)
      .collection(from: document)
    return ((read.collection, unknownKeys + read.warnings, read.notesTimedByFile), false)
  }

  /// A mapping whose media blobs are read from the document at `path`, the set-aside ones
  /// (if `precheck`, that of `syntax`) decoded and hashed on its thread.
  private func mediaMapping(
    syntax: JSONSyntaxPass, precheck: MediaPrecheck?, path: String, location: SourceLocation
  ) -> DeckJSONModelMapping {
    let lease = precheck.map(MediaPrecheck.Lease.init)
    var mapping = DeckJSONModelMapping(location: location) {
      [progress, defersMediaChecks, waitsForPrecheck] index, media in
      try Cancellation.check()
      defer { progress?.advance(.checkingMedia) }
      return try Self.blob(
        for: media, index: index, syntax: syntax, precheck: precheck, lease: lease,
        use: defersMediaChecks ? (waitsForPrecheck ? .waitThenDefer : .handOver) : .wait, path: path,
        location: location)
    }
    mapping.modificationTime = FileManager.default.modificationSeconds(atPath: path) ?? 0
    return mapping
  }

  /// Thrown when an element's problem is one `JSONDecoder` reports for the document as a whole
  /// (such as a number that does not fit): the document is then read whole.
  private struct NeedsWholeDocument: Error {}

  /// The top-level arrays decoded element by element, in document order.
  enum Section: CaseIterable {
    case notes, cards, reviews

    var key: String {
      switch self {
      case .notes: "notes"
      case .cards: "cards"
      case .reviews: "reviews"
      }
    }

    var phase: ConversionPhase {
      switch self {
      case .notes: .readingNotes
      case .cards: .readingCards
      case .reviews: .readingReviews
      }
    }
  }

  /// ``DeckJSONDocument``'s properties in the order its decoder reads them: the order in which
  /// decoding the whole document would meet (and report) problems.
  private static let propertyOrder = [
    "format", "version", "creationTime", "deckOptions", "decks", "noteTypes", "notes", "cards", "reviews",
    "deletions", "settings", "tagRegistry", "media",
  ]

  /// Where `key` is in ``propertyOrder`` (after every property when it is none of them).
  private static func rank(of key: String) -> Int {
    propertyOrder.firstIndex(of: key) ?? propertyOrder.count
  }

  /// Where in ``propertyOrder`` the problem `error` is (-1 at the top level).
  private static func rank(of error: DecodingError) -> Int {
    let path: [any CodingKey]
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      path = context.codingPath
    case .keyNotFound(let key, let context):
      path = context.codingPath + [key]
    @unknown default:
      path = []
    }
    guard let first = path.first else { return -1 }
    return propertyOrder.firstIndex(of: first.stringValue) ?? -1
  }

  /// Reads a document whose notes, cards and reviews were split out of `reduced`: the rest is
  /// decoded whole, each element on its own, and problems are reported in the order decoding
  /// the whole document would report them (every decoding problem, in document order, before
  /// any problem of meaning, such as a note naming a note type that does not exist).
  ///
  /// With `leftUnchecked`, the pass passed over the elements it left (those it did not record in
  /// `decoded`) without checking them: each is decoded checking it, and ``ShortcutFailed`` is
  /// thrown for one the fast decoder is not sure of.
  private func readSplit(
    syntax: JSONSyntaxPass, decoded: DecodedElements, leftUnchecked: Bool, precheck: MediaPrecheck?, file: MappedFile,
    path: String, location: SourceLocation
  ) throws -> Reading {
    let reduced = Data(syntax.reduced)
    try checkFormat(reduced, location: location)
    var mapping = mediaMapping(syntax: syntax, precheck: precheck, path: path, location: location)
    let decoder = JSONDecoder()
    var document: DeckJSONDocument?
    var laterDecodingError: DecodingError?
    // Keys the format lacks: those of the document around the split arrays first, then each
    // element's in order.
    var unknownKeys: [Diagnostic] = []
    let keyCheck = UnknownKeys()
    do {
      let decoded = try decoder.decode(DeckJSONDocument.self, from: reduced)
      document = decoded
      unknownKeys = try reduced.withUnsafeBytes {
        try keyCheck.warnings(in: $0, decoded: decoded, path: "", location: location)
      }
    } catch let error as DecodingError {
      guard Self.rank(of: error) > Self.rank(of: "noteTypes") else {
        throw DecodingErrorMessage.deckError(error, location: location, json: reduced)
      }
      laterDecodingError = error
    }
    var meaningError: (any Error)?
    if let document {
      mapping.makesCards = document.cards == nil
      do {
        try mapping.mapHeader(document)
      } catch {
        meaningError = error
      }
    }
    mapping.reserve(
      notes: syntax.elements["notes"]?.count ?? 0, cards: syntax.elements["cards"]?.count ?? 0,
      reviews: syntax.elements["reviews"]?.count ?? 0)
    // What the pass left undecoded is decoded a chunk at a time on a second thread as well.
    var elements: [Section: JSONSyntaxPass.Elements] = [:]
    var leftFrom: [Section: Int] = [:]
    for section in Section.allCases {
      elements[section] = syntax.elements[section.key]
      leftFrom[section] = decoded.recordedCount(section)
    }
    let left =
      decodesOnSecondThread
      ? LeftElementsDecoding(file: file, elements: elements, leftFrom: leftFrom, unchecked: leftUnchecked) : nil
    defer { left?.stop() }
    for section in Section.allCases {
      if let pending = laterDecodingError, Self.rank(of: pending) <= Self.rank(of: section.key) {
        throw DecodingErrorMessage.deckError(pending, location: location, json: reduced)
      }
      guard let elements = syntax.elements[section.key] else { continue }
      progress?.start(section.phase, total: Int64(elements.count))
      defer { progress?.finish(section.phase) }
      for index in 0..<elements.count {
        let range = elements.range(index)
        let bytes = UnsafeRawBufferPointer(rebasing: file.bytes[range])
        let map = meaningError == nil && document != nil
        let unchecked = leftUnchecked && index >= leftFrom[section, default: 0]
        /// This element, decoded here: `fast` is the fast decoder's function for its section.
        func decode<Element: Decodable>(_ fast: (UnsafeRawBufferPointer, Bool) -> Element?) throws -> Element {
          try decodeElement(
            bytes, section, index, decoder, location: location, unchecked: unchecked, keyCheck: keyCheck,
            unknownKeys: &unknownKeys
          ) { fast($0, unchecked) }
        }
        do {
          switch section {
          case .notes:
            let note = try decoded.takeNote(index) ?? left?.takeNote(index) ?? decode(JSONElementDecoder.note)
            if map { try mapping.add(note: note, index: index) }
          case .cards:
            let card = try decoded.takeCard(index) ?? left?.takeCard(index) ?? decode(JSONElementDecoder.card)
            if map { try mapping.add(card: card, index: index) }
          case .reviews:
            let review = try decoded.takeReview(index) ?? left?.takeReview(index) ?? decode(JSONElementDecoder.review)
            if map { mapping.add(review: review) }
          }
        } catch let error as ElementDecodingError {
          throw error.error
        } catch let error as NeedsWholeDocument {
          throw error
        } catch let error as ShortcutFailed {
          throw error
        } catch {
          meaningError = error
        }
        if index % 4096 == 0 {
          try Cancellation.check()
          progress?.set(section.phase, completed: Int64(index))
          file.release(below: range.lowerBound)
        }
      }
    }
    file.releaseAll()
    if let laterDecodingError {
      throw DecodingErrorMessage.deckError(laterDecodingError, location: location, json: reduced)
    }
    if let meaningError { throw meaningError }
    guard let document else { return (mapping.collection, unknownKeys + mapping.warnings, []) }
    try mapping.completeNotes()
    progress?.start(.checkingMedia, total: Int64(document.media?.count ?? 0))
    defer { progress?.finish(.checkingMedia) }
    try mapping.mapMedia(document.media)
    return (mapping.collection, unknownKeys + mapping.warnings, mapping.notesTimedByFile)
  }

  /// A decoding problem of one element, told apart from problems of meaning.
  private struct ElementDecodingError: Error {
    var error: DeckError
  }

  /// Element `index` of `section`: by the fast decoder when it is sure, else by `JSONDecoder`;
  /// one the pass passed over `unchecked` only by the fast decoder (checking), else
  /// ``ShortcutFailed`` is thrown.
  private func decodeElement<Element: Decodable>(
    _ bytes: UnsafeRawBufferPointer, _ section: Section, _ index: Int, _ decoder: JSONDecoder,
    location: SourceLocation, unchecked: Bool, keyCheck: UnknownKeys, unknownKeys: inout [Diagnostic],
    fast: (UnsafeRawBufferPointer) -> Element?
  ) throws -> Element {
    if let element = fast(bytes) { return element }
    if unchecked { throw ShortcutFailed() }
    do {
      let element = try decoder.decode(Element.self, from: Data(bytes))
      // The fast decoder takes no key the format lacks: such keys are named here.
      unknownKeys += try keyCheck.warnings(
        in: bytes, decoded: element, path: "\(section.key)[\(index)]", location: location)
      return element
    } catch let error as DecodingError {
      // A number found in the element is named with its path; anything else (a lone surrogate)
      // is reported as the whole document's reading reports it.
      if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
        UndecodableValue.find(in: bytes)?.path.isEmpty ?? true
      {
        throw NeedsWholeDocument()
      }
      throw ElementDecodingError(
        error: DecodingErrorMessage.deckError(
          error, location: location, prefix: [PathKey(stringValue: section.key), PathKey(intValue: index)],
          json: Data(bytes)))
    }
  }

  /// Refuses documents that are not deckport decks, or of a version this reader does not know,
  /// before their shape is looked at.
  private func checkFormat(_ reduced: Data, location: SourceLocation) throws {
    let header: DocumentHeader
    do {
      header = try JSONDecoder().decode(DocumentHeader.self, from: reduced)
    } catch let error as DecodingError {
      throw DecodingErrorMessage.deckError(error, location: location, json: reduced)
    }
    try header.check(
      format: DeckJSONDocument.formatName, version: DeckJSONDocument.currentVersion, at: location,
      wrongFormat: { found in
        found.map { "the format is \"\($0)\", not \"\(DeckJSONDocument.formatName)\"" }
          ?? "not a deckport deck document: the top-level key \"format\": \"\(DeckJSONDocument.formatName)\" is missing"
      }, formatTitle: "deckport deck format")
  }

  /// How the reader takes the second thread's work on a media string.
  private enum PrecheckUse {
    /// Waits for it (helping), and checks the declaration now.
    case wait
    /// Hands the blob to the thread, which checks the declaration if it gets to the string
    /// first; else it is checked when the data is first read whole.
    case handOver
    /// As ``handOver``, after waiting for it (the tests).
    case waitThenDefer
  }

  /// The blob of `media`, `media[index]`, checked against its declared SHA-1 and size now or,
  /// for data left in the file and a deferring `use`, by `precheck`'s thread or when it is first
  /// read whole (the check holds `lease`).
  private static func blob(
    for media: MediaJSON, index: Int, syntax: JSONSyntaxPass, precheck: MediaPrecheck?, lease: MediaPrecheck.Lease?,
    use: PrecheckUse, path: String, location: SourceLocation
  ) throws -> MediaBlob {
    var dataLocation = location
    dataLocation.jsonPath = "media[\(index)].data"
    let blob: MediaBlob
    if let (setAside, number) = syntax.setAsideString(for: media.data) {
      let source = Base64FileRangeSource(
        path: path, offset: setAside.offset, length: setAside.length, location: dataLocation)
      if use != .wait {
        // Checked by the second thread if it gets there first and finds the data as declared;
        // anything else (not done yet, not base64, not as declared) is checked by whoever reads
        // it first, so a conversion reports it at the same point however far the thread had come.
        let (name, declaredSize, declaredSHA1, place) = (media.name, media.size, media.sha1, dataLocation)
        let deferred = MediaBlob(source: source) { sha1, size in
          withExtendedLifetime(lease) {}
          try checkDeclaration(name: name, size: declaredSize, sha1: declaredSHA1, actual: (sha1, size), at: place)
        }
        if use == .waitThenDefer { _ = precheck?.fingerprint(of: number) }
        precheck?.attach(deferred, to: number)
        return deferred
      }
      if let known = precheck?.fingerprint(of: number) {
        blob = MediaBlob(source: source, computedSHA1: known.sha1, size: known.size)
      } else {
        // Not decoded yet, or not valid: decoded here, where a problem is reported.
        blob = MediaBlob(source: source)
      }
    } else {
      guard let bytes = Data(base64Encoded: media.data) else {
        throw DeckError(.corrupt, at: dataLocation, "not valid base64")
      }
      blob = MediaBlob(data: bytes)
    }
    let actual = try blob.fingerprint()
    try checkDeclaration(name: media.name, size: media.size, sha1: media.sha1, actual: actual, at: dataLocation)
    return blob
  }

  /// Throws when the SHA-1 and size computed from the bytes of the file `name` differ from the
  /// `size` and `sha1` its entry declares (when it declares them).
  private static func checkDeclaration(
    name: String, size: Int64?, sha1: String?, actual: (sha1: [UInt8], size: Int64), at location: SourceLocation
  ) throws {
    if let size, size != actual.size {
      throw DeckError(.corrupt, at: location, "'\(name)' has \(actual.size) bytes, but its size says \(size)")
    }
    if let sha1, sha1.lowercased() != SHA1.hex(actual.sha1) {
      throw DeckError(
        .corrupt, at: location, "the SHA-1 of '\(name)' is \(SHA1.hex(actual.sha1)), but its sha1 says \(sha1)")
    }
  }
}
