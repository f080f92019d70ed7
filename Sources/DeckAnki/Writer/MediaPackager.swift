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
///   and the `_` files its note types' CSS and templates refer to, as Anki's exporter does,
///   and every file Anki's import keeps though nothing refers to it (a name starting with `_`
///   or `latex-`, ``MediaFileName/isStatic(_:)``); every other file is left out with a warning
///   naming it. A `.colpkg` carries every file.
/// * A file whose source is a member of an Anki package stored the way the output needs it (raw
///   bytes into a legacy package, a zstd frame into a Latest one), stored or deflated, is
///   checked and then copied into the archive as it is stored, without recompressing. Every
///   other file is read from its source and written raw (legacy) or as one zstd frame (Latest):
///   compressed at level 1, or of stored blocks for types that are compressed already (JPEG,
///   PNG, MP3, …; ``MIMEType/isCompressed(_:)``); it is hashed on the way when the manifest needs its SHA-1.
/// * That work runs on worker threads (``MediaWorkers``) while the archive is written, in
///   bounded memory: no file is held in memory whole unless it is small.
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
    let referenced = kind == .apkg ? MediaReferences.referencedNames(in: collection) : []
    var entries: [Entry] = []
    var written = Set<[Unicode.Scalar]>()
    for file in media {
      let here = location.item("media file '\(MediaFileName.visible(file.name))'")
      let name = MediaFileName.normalized(file.name)
      if kind == .apkg && !referenced.contains(Array(name.unicodeScalars)) && !MediaFileName.isStatic(name) {
        log.report(
          .mediaUnused, at: here,
          "nothing refers to this file as Anki finds references (a media tag or [sound:…] in a note's field), and its name does not start with '_' or 'latex-' (files Anki's import keeps regardless); Anki's import of a deck package leaves such a file out, so it is left out (a reference a template builds around a field's text, as '[{{Audio}}]' around 'sound:x.mp3', is not one to Anki)"
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
          .mediaRenamed, at: here,
          "Anki accepts only normalised file names; the file is written as '\(name)', and the notes' references to it are renamed so, as Anki's import renames them"
        )
      }
      guard written.insert(Array(name.unicodeScalars)).inserted else {
        log.report(
          .mediaDuplicate, at: here,
          "another media file is already written under the name '\(name)'; this one is left out")
        continue
      }
      entries.append(Entry(file: file, name: name))
    }
    return entries
  }

  /// Adds `entries` to `zip` as members `"0"`, `"1"`, … and then the manifest `media`, and
  /// starts making their bytes ready on worker threads, reporting ``ConversionPhase/copyingMedia``.
  /// The archive reads them when it is closed; stop the returned workers after that, whether
  /// the archive was written or not.
  static func add(
    _ entries: [Entry], generation: AnkiPackageGeneration, to zip: ZipWriter, scratch: TemporaryDirectory,
    location: SourceLocation, progress: ProgressReporter? = nil, workers: Int = MediaWorkers.workerCount
  ) throws -> MediaWorkers {
    let latest = generation == .latest
    var items: [MediaWorkers.Item] = []
    var compressions: [ZipCompression] = []
    for (index, entry) in entries.enumerated() {
      let memberLocation = location.member(String(index)).item("media file '\(MediaFileName.visible(entry.name))'")
      if let source = entry.file.blob.source as? ZipMemberMediaSource, source.isZstdCompressed == latest,
        let compression = copyableCompression(of: source)
      {
        items.append(
          .init(
            blob: entry.file.blob, job: .check(zip: source.zip, member: source.member), hashing: latest,
            location: memberLocation))
        compressions.append(compression)
      } else {
        let encoding: MediaWorkers.Encoding =
          !latest ? .raw : MIMEType.isCompressed(entry.file.mimeType) ? .zstdStored : .zstd(level: mediaZstdLevel)
        items.append(.init(blob: entry.file.blob, job: .encode(encoding), hashing: latest, location: memberLocation))
        compressions.append(.stored)
      }
    }
    let workers = MediaWorkers(items, scratch: scratch, progress: progress, workers: workers)
    do {
      for index in entries.indices {
        try zip.addStream(name: String(index), compression: compressions[index], from: workers.member(index))
      }
      if latest {
        let names = entries.map(\.name)
        let locations = items.map(\.location)
        try zip.addStream(
          name: "media", compression: .stored,
          from: ManifestSource {
            try latestManifest(names: names, fingerprints: workers.fingerprints(), locations: locations)
          })
      } else {
        let map = entries.indices.map { (String($0), JSONValue.string(entries[$0].name)) }
        try zip.addData(name: "media", data: Data(JSONValue.object(map).text.utf8), compression: .stored)
      }
    } catch {
      workers.stop()
      throw error
    }
    return workers
  }

  /// How member `source.member` is stored when the archive can copy it as it is (stored or
  /// deflated), or nil (another method, or an unreadable directory entry: then it is read
  /// and written again).
  private static func copyableCompression(of source: ZipMemberMediaSource) -> ZipCompression? {
    switch try? source.zip.compressionMethod(of: source.member) {
    case 0: .stored
    // Copied as it is: the level is not used.
    case 8: .deflate(level: 6)
    default: nil
    }
  }

  /// The Latest manifest: protobuf `MediaEntries`, one entry per file in member order, zstd-compressed.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at the file's location when a file is larger
  ///   than the manifest's 32-bit sizes record.
  static func latestManifest(
    names: [String], fingerprints: [(sha1: [UInt8], size: Int64)], locations: [SourceLocation]
  ) throws -> Data {
    var manifest = ProtobufWriter()
    for (index, (name, fingerprint)) in zip(names, fingerprints).enumerated() {
      if fingerprint.size > Int64(UInt32.max) {
        throw DeckError(
          .invalidRequest, at: locations[index],
          "the file is \(fingerprint.size) bytes; a package of the latest generation records sizes up to 4 GiB only")
      }
      var message = ProtobufWriter()
      message.writeString(field: 1, name)
      message.writeVarint(field: 2, UInt64(fingerprint.size))
      message.writeBytes(field: 3, Data(fingerprint.sha1))
      manifest.writeMessage(field: 1, message)
    }
    return try Zstd.compress(manifest.data, level: manifestZstdLevel)
  }

  /// The zstd level of media files that are not compressed already (style sheets, SVG, WAV,
  /// TrueType fonts): level 1 makes frames within a percent of level 3's size, half again as
  /// fast. Media whose type is compressed already (``MIMEType/isCompressed(_:)``) go into frames
  /// of stored blocks instead: level 1 shrank them by 1–2 % (1.7 % on the benchmark's sounds) for
  /// about a second of processor time per gigabyte.
  static let mediaZstdLevel: Int32 = 1

  /// The zstd level of the manifest (Anki's 0, zstd's default).
  static let manifestZstdLevel: Int32 = 3
}

/// The Latest manifest as the archive reads it, made when the archive reaches it (after every
/// media file, so every fingerprint is known).
private final class ManifestSource: ZipMemberSource {
  private let make: () throws -> Data
  private var data = Data()
  private var offset = 0

  init(_ make: @escaping () throws -> Data) {
    self.make = make
  }

  func open() throws -> ZipMemberSourceForm {
    data = try make()
    offset = 0
    return .bytes(size: UInt64(data.count))
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = min(buffer.count, data.count - offset)
    guard count > 0 else { return 0 }
    data.withUnsafeBytes { bytes in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
    }
    offset += count
    return count
  }

  func close() {
    data = Data()
  }
}
