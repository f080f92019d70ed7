import DeckCore
import DeckIO
import Foundation

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
/// * Each file is copied from its source into a temporary file, raw (legacy) or as one zstd
///   frame (Latest), hashing it on the way, and added to the archive from there; no file is
///   held in memory.
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
          "no note refers to this file (nor a note type's CSS or templates, for '_' files); an .apkg carries only referenced media, so it is left out")
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
          "Anki accepts only normalised file names; the file is written as '\(name)' (references to the old name are not changed)")
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
    func insert(_ name: String) {
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

  /// Adds entry *i* as member `"i"`, then the manifest as member `media`.
  static func write(
    _ entries: [Entry], generation: AnkiPackageGeneration, to zip: ZipWriter,
    scratch: TemporaryDirectory, location: SourceLocation
  ) throws {
    var manifest = ProtobufWriter()
    var legacyMap: [(String, JSONText)] = []
    for (index, entry) in entries.enumerated() {
      let member = String(index)
      let memberLocation = location.member(member).item("media file '\(MediaFileName.visible(entry.name))'")
      let path = scratch.path(for: "media-\(index)")
      let (sha1, size) = try spool(
        entry.file.blob, to: path, zstd: generation == .latest, location: memberLocation)
      try zip.addFile(name: member, fromPath: path, compression: .stored)
      if generation == .latest {
        guard size <= Int64(UInt32.max) else {
          throw DeckError(
            .invalidRequest, at: memberLocation,
            "the file is \(size) bytes; a package of the latest generation records sizes up to 4 GiB only")
        }
        var message = ProtobufWriter()
        message.writeString(field: 1, entry.name)
        message.writeVarint(field: 2, UInt64(size))
        message.writeBytes(field: 3, Data(sha1))
        manifest.writeMessage(field: 1, message)
      } else {
        legacyMap.append((member, .string(entry.name)))
      }
    }
    let manifestData: Data
    if generation == .latest {
      manifestData = try Zstd.compress(manifest.data, level: zstdLevel)
    } else {
      manifestData = Data(JSONText.object(legacyMap).text.utf8)
    }
    try zip.addData(name: "media", data: manifestData, compression: .stored)
  }

  /// The zstd level Anki writes at (its 0, zstd's default).
  static let zstdLevel: Int32 = 3

  /// Copies the bytes of `blob` into a new file at `path`, zstd-compressed or raw, and returns
  /// their SHA-1 and size (of the uncompressed bytes).
  private static func spool(
    _ blob: MediaBlob, to path: String, zstd: Bool, location: SourceLocation
  ) throws -> (sha1: [UInt8], size: Int64) {
    let file = try ScratchFile(path: path, location: location)
    var hasher = SHA1()
    var size: Int64 = 0
    let compressor = zstd ? ZstdCompressor(level: zstdLevel, location: location) : nil
    do {
      try blob.forEachChunk { chunk in
        hasher.update(chunk)
        size += Int64(chunk.count)
        if let compressor {
          try compressor.compress(chunk) { try file.write($0) }
        } else {
          try file.write(chunk)
        }
      }
    } catch let error as DeckError {
      throw error
    } catch {
      throw DeckError(.unreadableFile, at: location, "cannot read the media file from its source (\(error))")
    }
    if let compressor { try compressor.finish { try file.write($0) } }
    try file.close()
    return (hasher.finalize(), size)
  }
}
