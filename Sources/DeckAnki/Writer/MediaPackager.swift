import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Chooses the media files a package carries, under the names Anki accepts, and streams them
/// into the archive entry by entry with their manifest (the `media` member).
///
/// * Names are normalised as Anki normalises them (``MediaFileName``). A name that changes is
///   written under the new name with a warning (Anki refuses a Latest package holding a name
///   it would change); a name with nothing usable left is an error naming the file; a second
///   file under one name is left out with a warning.
/// * An `.apkg` carries the files its notes refer to (media tags, `[sound:]`, LaTeX images)
///   and the `_` files its note types' CSS and templates refer to, as Anki's exporter does;
///   every other file is left out with a warning naming it. A `.colpkg` carries every file.
/// * A file whose source is a member of an Anki package stored the way the output needs it (raw
///   bytes into a legacy package, a zstd frame into a Latest one) is checked and then copied
///   into the archive as it is stored, without recompressing. Every other file is copied from
///   its source into a temporary file, raw (legacy) or as one zstd frame (Latest), hashed on
///   the way when the manifest needs its SHA-1, and added to the archive from there. No file
///   is held in memory.
enum MediaPackager {
  /// A file to write and the name it is written under.
  struct Entry {
    var file: MediaFile
    var name: String
  }

  /// The files to write, in source order.
  static func entries(
    for collection: DeckCollection, media: [MediaFile], kind: AnkiPackageKind,
    location: SourceLocation, log: inout DiagnosticLog
  ) throws -> [Entry] {
    let referenced = kind == .apkg ? referencedNames(in: collection) : []
    var entries: [Entry] = []
    var written = Set<[Unicode.Scalar]>()
    for file in media {
      let here = location.item("media file '\(MediaFileName.visible(file.name))'")
      let name = MediaFileName.normalized(file.name)
      if kind == .apkg && !referenced.contains(Array(name.unicodeScalars)) {
        log.report(
          "media-unused", at: here,
          "no note refers to this file (nor a note type's CSS or templates, for '_' files); an .apkg carries only referenced media, so it is left out"
        )
        continue
      }
      guard !name.isEmpty else {
        throw DeckError(
          .invalidRequest, at: here,
          "the media file name has nothing Anki accepts in a file name; rename the file")
      }
      if !MediaFileName.isUnchanged(file.name, by: name) {
        log.report(
          "media-renamed", at: here,
          "Anki accepts only normalised file names; the file is written as '\(name)' (references to the old name are not changed)"
        )
      }
      guard written.insert(Array(name.unicodeScalars)).inserted else {
        log.report(
          "media-duplicate", at: here,
          "another media file is already written under the name '\(name)'; this one is left out")
        continue
      }
      entries.append(Entry(file: file, name: name))
    }
    return entries
  }

  /// The normalised names of every file the notes and note types refer to, the way Anki's
  /// exporter gathers them.
  static func referencedNames(in collection: DeckCollection) -> Set<[Unicode.Scalar]> {
    var names = Set<[Unicode.Scalar]>()
    // Notes name the same files over and over; normalise each name once.
    var seen = Set<[UInt8]>()
    func insert(_ name: String) {
      guard seen.insert(Array(name.utf8)).inserted else { return }
      let normalized = MediaFileName.normalized(name)
      if !normalized.isEmpty { names.insert(Array(normalized.unicodeScalars)) }
    }
    let svg = Dictionary(collection.noteTypes.map { ($0.id, $0.latexSVG) }, uniquingKeysWith: { first, _ in first })
    for note in collection.notes {
      for field in note.fields {
        MediaReferences.fileNames(in: field).forEach(insert)
        MediaReferences.latexFileNames(in: field, svg: svg[note.noteTypeID] ?? false).forEach(insert)
      }
    }
    for noteType in collection.noteTypes {
      MediaReferences.underscoredFileNames(inCSS: noteType.css).forEach(insert)
      for template in noteType.templates {
        MediaReferences.underscoredFileNames(inTemplate: template.questionFormat).forEach(insert)
        MediaReferences.underscoredFileNames(inTemplate: template.answerFormat).forEach(insert)
      }
    }
    return names
  }

  /// A media file made ready for the archive: spooled into a scratch file in the form the
  /// package needs, or left in its source package to be copied as it is stored there.
  struct Prepared {
    enum Payload {
      /// A scratch file holding the member's bytes (raw, or one zstd frame).
      case file(path: String)
      /// A member of the source package whose stored bytes are already what the output needs
      /// (raw bytes into a legacy package, a zstd frame into a Latest one).
      case member(ZipReader, name: String)
    }

    var name: String
    var payload: Payload
    /// The SHA-1 and size of the uncompressed bytes, for a Latest manifest (nil for legacy).
    var fingerprint: (sha1: [UInt8], size: Int64)?
  }

  /// Makes each entry ready for the archive, in order, reporting ``ConversionPhase/copyingMedia``.
  ///
  /// A file that lives in a member of an Anki package whose stored form is what the output
  /// needs (a legacy package's raw bytes into a legacy package, a Latest package's zstd frame
  /// into a Latest one) is not recompressed: it is read once to check it (the frame decodes,
  /// the CRC matches, and for Latest its SHA-1 and size are computed for the manifest) and
  /// later copied into the archive as it is stored. Every other file is spooled into a scratch
  /// file, zstd-compressed (Latest) or raw (legacy), hashing it on the way only when the
  /// manifest needs its SHA-1.
  static func prepare(
    _ entries: [Entry], generation: AnkiPackageGeneration, scratch: TemporaryDirectory,
    location: SourceLocation, progress: ProgressReporter? = nil
  ) throws -> [Prepared] {
    progress?.start(.copyingMedia, total: Int64(entries.count))
    defer { progress?.finish(.copyingMedia) }
    let latest = generation == .latest
    // One compressor for every file: it starts a new frame after each.
    let compressor = latest ? ZstdCompressor(level: mediaZstdLevel, location: location) : nil
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    var prepared: [Prepared] = []
    prepared.reserveCapacity(entries.count)
    for (index, entry) in entries.enumerated() {
      let memberLocation = location.member(String(index)).item("media file '\(MediaFileName.visible(entry.name))'")
      if let source = entry.file.blob.source as? ZipMemberMediaSource, source.isZstdCompressed == latest {
        let fingerprint = try read(entry.file.blob, hashing: latest, buffer: buffer, location: memberLocation) { _ in }
        prepared.append(
          Prepared(name: entry.name, payload: .member(source.zip, name: source.member), fingerprint: fingerprint))
      } else {
        let path = scratch.path(for: "media-\(index)")
        let file = try ScratchFile(path: path, location: memberLocation)
        // A fingerprint already computed from the bytes (the JSON reader's check) is not computed again.
        let known = latest ? entry.file.blob.computedFingerprint : nil
        let hashed = try read(
          entry.file.blob, hashing: latest && known == nil, buffer: buffer, location: memberLocation
        ) {
          chunk in
          if let compressor {
            try compressor.compress(chunk) { try file.write($0) }
          } else {
            try file.write(chunk)
          }
        }
        if let compressor { try compressor.finish { try file.write($0) } }
        try file.close()
        prepared.append(Prepared(name: entry.name, payload: .file(path: path), fingerprint: hashed ?? known))
      }
      if let size = prepared.last?.fingerprint?.size, size > Int64(UInt32.max) {
        throw DeckError(
          .invalidRequest, at: memberLocation,
          "the file is \(size) bytes; a package of the latest generation records sizes up to 4 GiB only")
      }
      progress?.advance(.copyingMedia)
    }
    return prepared
  }

  /// Adds prepared file *i* as member `"i"`, then the manifest as member `media`.
  static func add(_ prepared: [Prepared], generation: AnkiPackageGeneration, to zip: ZipWriter) throws {
    var manifest = ProtobufWriter()
    var legacyMap: [(String, JSONValue)] = []
    for (index, file) in prepared.enumerated() {
      let member = String(index)
      switch file.payload {
      case .file(let path): try zip.addFile(name: member, fromPath: path, compression: .stored)
      case .member(let reader, let name): try zip.addMember(name: member, copying: name, from: reader)
      }
      if generation == .latest, let fingerprint = file.fingerprint {
        var message = ProtobufWriter()
        message.writeString(field: 1, file.name)
        message.writeVarint(field: 2, UInt64(fingerprint.size))
        message.writeBytes(field: 3, Data(fingerprint.sha1))
        manifest.writeMessage(field: 1, message)
      } else {
        legacyMap.append((member, .string(file.name)))
      }
    }
    let manifestData: Data
    if generation == .latest {
      manifestData = try Zstd.compress(manifest.data, level: manifestZstdLevel)
    } else {
      manifestData = Data(JSONValue.object(legacyMap).text.utf8)
    }
    try zip.addData(name: "media", data: manifestData, compression: .stored)
  }

  /// The zstd level of media files. Pictures and sounds are compressed already: level 1 makes
  /// frames within a percent of level 3's size, half again as fast (measured on JPEG-, PNG- and
  /// MP3-like bytes: 1.3 GB/s against 0.9 GB/s).
  static let mediaZstdLevel: Int32 = 1

  /// The zstd level of the manifest (Anki's 0, zstd's default).
  static let manifestZstdLevel: Int32 = 3

  /// Reads `blob` front to back, handing each chunk to `body`, and returns the SHA-1 and size
  /// of its bytes when `hashing`.
  private static func read(
    _ blob: MediaBlob, hashing: Bool, buffer: UnsafeMutableRawBufferPointer, location: SourceLocation,
    _ body: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> (sha1: [UInt8], size: Int64)? {
    var hasher = hashing ? SHA1() : nil
    var size: Int64 = 0
    do {
      let reader = try blob.source.openReader()
      while true {
        let count = try reader.read(into: buffer)
        if count == 0 { break }
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        hasher?.update(chunk)
        size += Int64(count)
        try body(chunk)
      }
    } catch let error as DeckError {
      throw error
    } catch {
      throw DeckError(.unreadableFile, at: location, "cannot read the media file from its source (\(error))")
    }
    guard var hasher else { return nil }
    return (hasher.finalize(), size)
  }
}
