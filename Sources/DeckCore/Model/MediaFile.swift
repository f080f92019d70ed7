import Foundation

/// A media file a deck carries: a picture, a sound, a style sheet.
public struct MediaFile: Sendable, Equatable {
  /// The file name notes refer to (`<img src="…">`, `[sound:…]`), one path component, NFC.
  public var name: String
  /// The MIME type, from the name's extension (`application/octet-stream` when unknown).
  public var mimeType: String
  /// The bytes, read from their source only when asked for.
  public var blob: MediaBlob

  /// Creates a media file; the MIME type defaults to the one the name's extension implies.
  public init(name: String, mimeType: String? = nil, blob: MediaBlob) {
    self.name = name
    self.mimeType = mimeType ?? MIMEType.forFileName(name)
    self.blob = blob
  }

  /// Two media files are equal when name, MIME type and content (SHA-1 and size) are equal.
  /// A blob whose source cannot be read equals nothing.
  public static func == (lhs: MediaFile, rhs: MediaFile) -> Bool {
    guard lhs.name == rhs.name, lhs.mimeType == rhs.mimeType else { return false }
    if lhs.blob === rhs.blob { return true }
    guard let left = try? lhs.blob.fingerprint(), let right = try? rhs.blob.fingerprint() else {
      return false
    }
    return left == right
  }
}

/// Reads a media file's bytes in chunks, front to back.
public protocol MediaByteReader: AnyObject {
  /// Fills the start of `buffer` with the next bytes and returns how many; 0 means the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension MediaByteReader {
  /// ``read(into:)``, with its answer checked: a reader is code of the app's own (a
  /// ``MediaSource`` anyone may implement), and a count below zero or past the end of `buffer`
  /// would make the caller's slice of the buffer trap.
  ///
  /// - Throws: the reader's error; ``MediaReadCountError`` for such a count.
  package func checkedRead(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = try read(into: buffer)
    guard count >= 0, count <= buffer.count else { throw MediaReadCountError(count: count, capacity: buffer.count) }
    return count
  }
}

/// A ``MediaByteReader`` answered a count of bytes no read can give: below zero, or more than
/// the buffer holds.
package struct MediaReadCountError: Error, CustomStringConvertible {
  /// The count the reader answered.
  package let count: Int
  /// The size of the buffer it was given.
  package let capacity: Int

  package var description: String {
    "the reader answered that it read \(count) bytes into a buffer of \(capacity)"
  }
}

/// Where a media file's bytes live: a zip member, a file, a base64 string, memory.
public protocol MediaSource: Sendable {
  /// Opens a fresh reader positioned at the first byte.
  func openReader() throws -> any MediaByteReader
}

/// The bytes of a media file, kept in their source and read only when asked for, so a deck with
/// gigabytes of media is never held in memory. The SHA-1 and size are computed on first use
/// (or taken from the source's own manifest) and remembered.
///
/// A blob may carry a check still to be made against its bytes: what its source declares (a
/// SHA-1, a size) that has not been compared yet (a deckport JSON deck read for a conversion).
/// The check runs the first time the bytes are read whole (``forEachChunk(_:)``, ``data()``,
/// ``fingerprint()``, or a writer's worker), and a read whose bytes fail it throws at its end.
public final class MediaBlob: @unchecked Sendable {
  /// Compares the SHA-1 and size computed from a blob's bytes with what its source declares, and
  /// throws (a ``DeckError`` naming the place in the source) when they differ.
  package typealias DeclarationCheck = @Sendable (_ sha1: [UInt8], _ size: Int64) throws -> Void

  /// Where the bytes live.
  public let source: any MediaSource
  private let lock = NSLock()
  private var knownSHA1: [UInt8]?
  private var knownSize: Int64?
  /// Whether `knownSHA1` and `knownSize` were computed from the bytes, not merely declared.
  private var knownFromBytes = false
  /// The check still to be made against the bytes, or nil once made (or when there is none).
  private var pendingCheck: DeclarationCheck?

  /// Creates a blob over `source`; `sha1` and `size` may be given when the source declares them.
  public init(source: any MediaSource, sha1: [UInt8]? = nil, size: Int64? = nil) {
    self.source = source
    self.knownSHA1 = sha1
    self.knownSize = size
  }

  /// Creates a blob over `source` whose SHA-1 and size its creator computed from the bytes (not
  /// merely read from a declaration), so that a writer need not hash them again.
  package convenience init(source: any MediaSource, computedSHA1 sha1: [UInt8], size: Int64) {
    self.init(source: source, sha1: sha1, size: size)
    knownFromBytes = true
  }

  /// Creates a blob over `source` whose declared SHA-1 and size are checked by `check` when the
  /// bytes are first read whole, not now: a reader that leaves the bytes in their source hands
  /// the check to whoever reads them (a writer's worker hashing them anyway), so they are read
  /// once. Whoever keeps what was written must make the checks no read made
  /// (``DeckCollection/checkPendingMedia()``) first.
  package convenience init(source: any MediaSource, checkedOnRead check: @escaping DeclarationCheck) {
    self.init(source: source)
    pendingCheck = check
  }

  /// Whether a check of the bytes against their declaration is still to be made.
  package var hasPendingCheck: Bool {
    lock.lock()
    defer { lock.unlock() }
    return pendingCheck != nil
  }

  /// Records the SHA-1 and size a reader of the whole bytes computed, making the pending check
  /// with them first, so that nothing hashes the bytes again.
  ///
  /// - Throws: the check's error when the bytes differ from their declaration (nothing is
  ///   recorded then, and the check stays pending).
  package func recordComputed(sha1: [UInt8], size: Int64) throws {
    lock.lock()
    let check = pendingCheck
    lock.unlock()
    try check?(sha1, size)
    lock.lock()
    defer { lock.unlock() }
    pendingCheck = nil
    if (knownSHA1 ?? sha1) == sha1 && (knownSize ?? size) == size { knownFromBytes = true }
    if knownSHA1 == nil { knownSHA1 = sha1 }
    if knownSize == nil { knownSize = size }
  }

  /// A blob over bytes already in memory.
  public convenience init(data: Data) {
    self.init(source: InMemoryMediaSource(data: data), size: Int64(data.count))
  }

  /// The SHA-1 of the bytes (20 bytes), reading the source once if it was not declared.
  public func sha1() throws -> [UInt8] { try fingerprint().sha1 }

  /// The number of bytes, reading the source once if it was not declared.
  public func size() throws -> Int64 {
    lock.lock()
    let size = knownSize
    lock.unlock()
    if let size { return size }
    return try fingerprint().size
  }

  /// The SHA-1 and the size when they have been computed from the bytes (by ``fingerprint()``,
  /// or by the blob's creator), nil while they are unknown or only declared.
  package var computedFingerprint: (sha1: [UInt8], size: Int64)? {
    lock.lock()
    defer { lock.unlock() }
    guard knownFromBytes, let sha1 = knownSHA1, let size = knownSize else { return nil }
    return (sha1, size)
  }

  /// The SHA-1 and the size when both are known, declared or computed, without reading the
  /// bytes; nil otherwise.
  package var knownFingerprint: (sha1: [UInt8], size: Int64)? {
    lock.lock()
    defer { lock.unlock() }
    guard let sha1 = knownSHA1, let size = knownSize else { return nil }
    return (sha1, size)
  }

  /// The SHA-1 as 40 lowercase hexadecimal digits.
  public func sha1Hex() throws -> String { SHA1.hex(try sha1()) }

  /// The SHA-1 and the size, computed together in one pass over the source when not yet known.
  ///
  /// A declared SHA-1 is trusted here; use ``verify()`` to check it against the bytes.
  public func fingerprint() throws -> (sha1: [UInt8], size: Int64) {
    lock.lock()
    if let sha1 = knownSHA1, let size = knownSize {
      lock.unlock()
      return (sha1, size)
    }
    lock.unlock()
    let computed = try computeFingerprint()
    // Declared values the bytes agree with are then known from the bytes as well.
    try recordComputed(sha1: computed.sha1, size: computed.size)
    lock.lock()
    defer { lock.unlock() }
    return (knownSHA1 ?? computed.sha1, knownSize ?? computed.size)
  }

  /// Reads the bytes and reports whether they match the declared SHA-1 and size (if any).
  public func verify() throws -> Bool {
    let computed = try computeFingerprint()
    if hasPendingCheck {
      do {
        try recordComputed(sha1: computed.sha1, size: computed.size)
      } catch {
        return false
      }
    }
    lock.lock()
    defer { lock.unlock() }
    return (knownSHA1 ?? computed.sha1) == computed.sha1 && (knownSize ?? computed.size) == computed.size
  }

  /// Reads all bytes into memory. Meant for small files and tests; writers stream instead.
  public func data() throws -> Data {
    var result = Data()
    try forEachChunk { result.append(contentsOf: $0) }
    return result
  }

  /// Calls `body` with successive chunks of the bytes, front to back.
  ///
  /// - Throws: the source's error; after the last chunk, the pending check's error when the
  ///   bytes differ from what their source declares.
  public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    guard hasPendingCheck else { return try readChunks(body) }
    var hasher = SHA1()
    var size: Int64 = 0
    try readChunks { chunk in
      hasher.update(chunk)
      size += Int64(chunk.count)
      try body(chunk)
    }
    try recordComputed(sha1: hasher.finalize(), size: size)
  }

  /// The result of `body`, which reads blobs, with an error of a blob's source (anything but a
  /// ``DeckError`` or a cancellation: a reader's own error, ``MediaReadCountError``) thrown as a
  /// ``DeckError/Kind/unreadableFile`` at `location`, the words a writer's media workers use.
  package static func namingSourceErrors<T>(at location: SourceLocation, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DeckError {
      throw error
    } catch let error as CancellationError {
      throw error
    } catch {
      throw DeckError(.unreadableFile, at: location, "cannot read the media file from its source (\(error))")
    }
  }

  /// Calls `body` with successive chunks of the bytes, front to back, checking nothing.
  private func readChunks(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    let reader = try source.openReader()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = try reader.checkedRead(into: buffer)
      if count == 0 { break }
      try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
  }

  private func computeFingerprint() throws -> (sha1: [UInt8], size: Int64) {
    var hasher = SHA1()
    var size: Int64 = 0
    try readChunks { chunk in
      hasher.update(chunk)
      size += Int64(chunk.count)
    }
    return (hasher.finalize(), size)
  }
}

/// Media bytes held in memory.
public struct InMemoryMediaSource: MediaSource {
  /// The bytes.
  public let data: Data

  /// Creates a source over `data`.
  public init(data: Data) { self.data = data }

  public func openReader() throws -> any MediaByteReader { DataReader(data: data) }

  private final class DataReader: MediaByteReader {
    var bytes: DataByteSource

    init(data: Data) { bytes = DataByteSource(data) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try bytes.read(into: buffer) }
  }
}
