import CZip
import DeckCore
import Foundation

/// A zip archive opened read-only with libzip: member names, sizes and contents.
///
/// ```swift
/// let zip = try ZipReader(path: "deck.apkg", location: SourceLocation(file: "deck.apkg"))
/// let meta = try zip.readAll("meta", limit: 1 << 16)
/// ```
///
/// Every call into libzip, including those of the ``ZipEntryStream``s it opens, holds one lock,
/// so the reader and its streams may be used from several threads.
package final class ZipReader: @unchecked Sendable {
  /// The archive file, for errors; member errors add the member name.
  package let location: SourceLocation
  /// The names of the members, in archive (central directory) order.
  package let entryNames: [String]
  /// libzip's archive handle; every use holds `lock`.
  private let archive: OpaquePointer
  /// Serialises every call on `archive`.
  let lock = NSLock()

  /// Opens the zip archive at `path` read-only.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` when the file is missing or cannot be read;
  ///   ``DeckError/Kind/wrongFormat`` with libzip's message when it is not a zip archive, such
  ///   as `not a zip archive (Not a zip archive)`; ``DeckError/Kind/corrupt`` with the byte
  ///   offset when it is one cut short or with a damaged central directory (``ZipDamage``).
  package init(path: String, location: SourceLocation) throws {
    self.location = location
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw DeckError(.unreadableFile, at: location, "cannot open the file (No such file or directory)")
    }
    if isDirectory.boolValue {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (it is a directory)")
    }
    if FileManager.default.fileSize(atPath: path) == 0 {
      // libzip opens an empty file as an empty archive; a reader must not.
      throw DeckError(.wrongFormat, at: location, "not a zip archive (the file is empty)")
    }
    var code: Int32 = 0
    // ZIP_CHECKCONS: a central directory that disagrees with the members' own headers is an
    // error, not an archive whose members are silently read under other names.
    guard let archive = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
      let message = LibzipError.message(code: code, systemError: errno)
      switch code {
      case ZIP_ER_NOENT, ZIP_ER_OPEN, ZIP_ER_READ, ZIP_ER_SEEK, ZIP_ER_MEMORY, ZIP_ER_TELL:
        throw DeckError(.unreadableFile, at: location, "cannot read the file (\(message))")
      case ZIP_ER_MULTIDISK:
        throw DeckError(.wrongFormat, at: location, "unsupported zip archive (\(message))")
      default:
        if let damage = ZipDamage.diagnose(path: path, libzipMessage: message, location: location) { throw damage }
        throw DeckError(.wrongFormat, at: location, "not a zip archive (\(message))")
      }
    }
    self.archive = archive
    let count = max(0, zip_get_num_entries(archive, 0))
    var names: [String] = []
    names.reserveCapacity(Int(count))
    for index in 0..<count {
      if let name = zip_get_name(archive, zip_uint64_t(index), 0) {
        names.append(String(cString: name))
      }
    }
    self.entryNames = names
  }

  deinit {
    zip_discard(archive)
  }

  /// Whether the archive has a member named exactly `name`.
  package func contains(_ name: String) -> Bool {
    index(of: name) != nil
  }

  /// The uncompressed size of member `name`, as its directory entry declares it.
  ///
  /// - Throws: ``DeckError/Kind/missingPart`` when there is no such member.
  package func uncompressedSize(of name: String) throws -> Int64 {
    let (_, stat) = try directoryEntry(of: name, field: zip_uint64_t(ZIP_STAT_SIZE), "size")
    guard let size = Int64(exactly: stat.size) else {
      throw DeckError(
        .corrupt, at: location.member(name), "the member declares an impossible size (\(stat.size) bytes)")
    }
    return size
  }

  /// The compression method of member `name` as its directory entry records it (0 stored,
  /// 8 deflate).
  ///
  /// - Throws: ``DeckError/Kind/missingPart`` when there is no such member.
  package func compressionMethod(of name: String) throws -> Int32 {
    try storage(of: name).method
  }

  /// The compression method of member `name` as its directory entry records it (0 stored,
  /// 8 deflate), and its index.
  ///
  /// - Throws: ``DeckError/Kind/missingPart`` when there is no such member.
  func storage(of name: String) throws -> (index: zip_uint64_t, method: Int32) {
    let (index, stat) = try directoryEntry(of: name, field: zip_uint64_t(ZIP_STAT_COMP_METHOD), "compression method")
    return (index, Int32(stat.comp_method))
  }

  /// How a member is stored: its compression method, the CRC-32 and size of its uncompressed
  /// bytes, and the size of its stored bytes.
  package struct StoredForm: Sendable {
    /// The zip compression method: 0 stored, 8 deflate.
    package var method: Int32
    /// The CRC-32 of the uncompressed bytes.
    package var crc: UInt32
    /// The size of the uncompressed bytes.
    package var size: UInt64
    /// The size of the stored bytes.
    package var compressedSize: UInt64

    /// The form a directory entry read with those four fields valid records.
    init(_ stat: zip_stat_t) {
      method = Int32(stat.comp_method)
      crc = stat.crc
      size = stat.size
      compressedSize = stat.comp_size
    }
  }

  /// Opens member `name` for reading its bytes as they are stored (still compressed, and not
  /// checked against the CRC), with the form they are stored in.
  ///
  /// - Throws: ``DeckError/Kind/missingPart`` when there is no such member;
  ///   ``DeckError/Kind/corrupt`` when libzip cannot read its directory entry or open it.
  package func openStored(_ name: String) throws -> (stream: ZipEntryStream, form: StoredForm) {
    let memberLocation = location.member(name)
    let fields = zip_uint64_t(ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC | ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE)
    let (index, stat) = try directoryEntry(of: name, field: fields, "compression method, CRC and sizes")
    let file = try openCompressed(index, at: memberLocation)
    return (ZipEntryStream(reader: self, file: file, location: memberLocation), StoredForm(stat))
  }

  /// The index and directory entry of member `name`, whose `field` (`ZIP_STAT_…` flags, the
  /// member's `what`) must be valid.
  ///
  /// - Throws: ``DeckError/Kind/missingPart`` when there is no such member;
  ///   ``DeckError/Kind/corrupt`` when libzip cannot read the entry or its `field`.
  private func directoryEntry(of name: String, field: zip_uint64_t, _ what: String) throws -> (
    index: zip_uint64_t, stat: zip_stat_t
  ) {
    let memberLocation = location.member(name)
    guard let index = index(of: name) else { throw Self.missing(name, at: memberLocation) }
    return try withArchive { archive in
      guard let stat = Self.entry(index, in: archive, field: field) else {
        throw DeckError(
          .corrupt, at: memberLocation,
          "cannot read the member's \(what) (\(LibzipError.message(archive: archive)))")
      }
      return (index, stat)
    }
  }

  /// The directory entry of member `index` of `archive` (the lock held), when libzip reads it
  /// with every `field` valid; nil otherwise.
  private static func entry(_ index: zip_uint64_t, in archive: OpaquePointer, field: zip_uint64_t) -> zip_stat_t? {
    var stat = zip_stat_t()
    zip_stat_init(&stat)
    guard zip_stat_index(archive, index, 0, &stat) == 0, stat.valid & field == field else { return nil }
    return stat
  }

  /// The decompressed bytes of member `name`, when they are at most `limit` bytes.
  ///
  /// - Throws: ``DeckError`` at `location.member(name)`: ``DeckError/Kind/missingPart``
  ///   `member 'x' is missing` when absent, ``DeckError/Kind/limitExceeded`` when larger than
  ///   `limit`, ``DeckError/Kind/corrupt`` with libzip's message on CRC or inflate errors.
  package func readAll(_ name: String, limit: Int64) throws -> Data {
    let declared = try uncompressedSize(of: name)
    let memberLocation = location.member(name)
    guard declared <= limit else {
      throw Self.tooLarge(limit: limit, size: declared, at: memberLocation)
    }
    let stream = try openEntry(name)
    var data = Data(count: Int(declared))
    var filled = 0
    while filled < data.count {
      let count = try data.withUnsafeMutableBytes { buffer in
        try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      }
      if count == 0 {
        throw DeckError(
          .corrupt, at: memberLocation,
          "the member ends after \(filled) of its declared \(declared) bytes")
      }
      filled += count
    }
    // One more read reaches the end of the member, where libzip checks the CRC.
    var probe: UInt8 = 0
    let extra = try withUnsafeMutableBytes(of: &probe) { try stream.read(into: $0) }
    if extra != 0 {
      throw DeckError(
        .corrupt, at: memberLocation, "the member is longer than its declared \(declared) bytes")
    }
    return data
  }

  /// Opens member `name` for streaming its decompressed bytes.
  ///
  /// A deflated, unencrypted member that declares at most `wholeLimit` bytes is inflated in one
  /// go at the first read (``WholeInflate``, libdeflate), which is about two and a half times as
  /// fast as libzip's streaming inflate and holds the member, compressed and not, in memory
  /// meanwhile; any other member is streamed by libzip. Both check the CRC-32.
  ///
  /// Several streams may be open at once; each holds the archive open until it is released.
  ///
  /// - Throws: ``DeckError/Kind/missingPart`` when there is no such member;
  ///   ``DeckError/Kind/wrongFormat`` for an unsupported compression or encryption;
  ///   ``DeckError/Kind/corrupt`` when libzip cannot open it otherwise.
  package func openEntry(_ name: String, inflatingWholeUpTo wholeLimit: Int64 = 0) throws -> ZipEntryStream {
    let memberLocation = location.member(name)
    guard let index = index(of: name) else { throw Self.missing(name, at: memberLocation) }
    if wholeLimit > 0, let form = wholeInflatable(index, limit: wholeLimit) {
      let file = try openCompressed(index, at: memberLocation)
      return ZipEntryStream(reader: self, compressedFile: file, inflatingWhole: form, location: memberLocation)
    }
    let file = try withArchive { archive in
      guard let file = zip_fopen_index(archive, index, 0) else {
        let message = LibzipError.message(archive: archive)
        switch LibzipError.code(archive: archive) {
        case ZIP_ER_COMPNOTSUPP, ZIP_ER_ENCRNOTSUPP, ZIP_ER_NOPASSWD, ZIP_ER_WRONGPASSWD:
          throw DeckError(.wrongFormat, at: memberLocation, "cannot open the member (\(message))")
        default:
          throw DeckError(.corrupt, at: memberLocation, "cannot open the member (\(message))")
        }
      }
      return file
    }
    return ZipEntryStream(reader: self, file: file, location: memberLocation)
  }

  /// libzip's handle on member `index` for reading its bytes as they are stored.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at `location` when libzip cannot open it.
  private func openCompressed(_ index: zip_uint64_t, at location: SourceLocation) throws -> OpaquePointer {
    try withArchive { archive in
      guard let file = zip_fopen_index(archive, index, zip_flags_t(ZIP_FL_COMPRESSED)) else {
        throw DeckError(.corrupt, at: location, "cannot open the member (\(LibzipError.message(archive: archive)))")
      }
      return file
    }
  }

  /// How member `index` is stored, when it is deflated, unencrypted and small enough to be
  /// inflated whole: its size at most `limit`, its compressed size at most what deflate's stored
  /// blocks could make of that size (otherwise the directory entry is not to be trusted with an
  /// allocation, and libzip streams the member and finds what is wrong).
  private func wholeInflatable(_ index: zip_uint64_t, limit: Int64) -> StoredForm? {
    withArchive { archive in
      let fields = zip_uint64_t(
        ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC | ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_ENCRYPTION_METHOD)
      guard let stat = Self.entry(index, in: archive, field: fields),
        stat.comp_method == ZIP_CM_DEFLATE, stat.encryption_method == ZIP_EM_NONE,
        stat.size <= UInt64(limit), stat.comp_size <= stat.size + stat.size / 1000 + 1024
      else { return nil }
      return StoredForm(stat)
    }
  }

  /// Runs `body` with the archive handle while holding the lock.
  func withArchive<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(archive)
  }

  /// The index of member `name`, or nil when absent.
  private func index(of name: String) -> zip_uint64_t? {
    let index = withArchive { zip_name_locate($0, name, 0) }
    return index >= 0 ? zip_uint64_t(index) : nil
  }

  private static func missing(_ name: String, at location: SourceLocation) -> DeckError {
    DeckError(.missingPart, at: location, "member '\(name)' is missing")
  }

  private static func tooLarge(limit: Int64, size: Int64, at location: SourceLocation) -> DeckError {
    DeckError(
      .limitExceeded, at: location,
      "the member is \(size) bytes, more than the limit of \(limit) bytes")
  }
}
