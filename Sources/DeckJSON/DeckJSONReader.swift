import DeckCore
import DeckIO
import Foundation

/// Reads a deckport JSON deck document into the shared model.
///
/// ```swift
/// let (collection, warnings) = try DeckJSONReader().read(path: "French.json")
/// ```
///
/// The file is mapped, not loaded; media data stays in the file and is decoded when a blob is
/// read. Every declared SHA-1 and size is checked against the data while reading.
public struct DeckJSONReader: Sendable {
  /// Creates a reader.
  public init() {}

  /// Whether the file at `path` looks like a deckport deck document (its first bytes name the
  /// format), as opposed to some other JSON.
  public static func looksLikeDeckDocument(path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 256)) ?? Data()
    return String(decoding: head, as: UTF8.self).contains("\"\(DeckJSONDocument.formatName)\"")
  }

  /// Reads the document at `path`.
  ///
  /// - Throws: ``DeckError``: invalid JSON with its line and column; a document of the wrong
  ///   shape with the JSON path of the first problem and what was expected there; an unknown
  ///   format version by number; media whose data does not match its SHA-1 or size.
  public func read(path: String) throws -> (collection: DeckCollection, warnings: [Diagnostic]) {
    let location = SourceLocation(file: path)
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    } catch {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(error.localizedDescription))")
    }
    let syntax = try data.withUnsafeBytes { try JSONSyntaxPass(bytes: $0, location: location) }
    let reduced = Data(syntax.reduced)
    try checkFormat(reduced, location: location)
    let document: DeckJSONDocument
    do {
      document = try JSONDecoder().decode(DeckJSONDocument.self, from: reduced)
    } catch let error as DecodingError {
      throw DecodingErrorMessage.deckError(error, location: location)
    }
    let mapping = DeckJSONModelMapping(location: location) { index, media in
      try Self.blob(for: media, index: index, syntax: syntax, path: path, location: location)
    }
    return try mapping.collection(from: document)
  }

  /// Refuses documents that are not deckport decks, or of a version this reader does not know,
  /// before their shape is looked at.
  private func checkFormat(_ reduced: Data, location: SourceLocation) throws {
    struct Header: Decodable {
      var format: String?
      var version: Int?
    }
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: reduced)
    } catch let error as DecodingError {
      throw DecodingErrorMessage.deckError(error, location: location)
    }
    guard header.format == DeckJSONDocument.formatName else {
      var place = location
      place.jsonPath = "format"
      throw DeckError(
        .wrongFormat, at: place,
        header.format.map { "the format is \"\($0)\", not \"\(DeckJSONDocument.formatName)\"" }
          ?? "not a deckport deck document: the top-level key \"format\": \"\(DeckJSONDocument.formatName)\" is missing")
    }
    guard header.version == DeckJSONDocument.currentVersion else {
      var place = location
      place.jsonPath = "version"
      throw DeckError(
        .unsupportedVersion, at: place,
        "deckport deck format version \(header.version.map(String.init) ?? "(missing)") is not supported; this deckport reads version \(DeckJSONDocument.currentVersion)")
    }
  }

  private static func blob(
    for media: MediaJSON, index: Int, syntax: JSONSyntaxPass, path: String, location: SourceLocation
  ) throws -> MediaBlob {
    var dataLocation = location
    dataLocation.jsonPath = "media[\(index)].data"
    let blob: MediaBlob
    if let setAside = syntax.setAsideString(for: media.data) {
      blob = MediaBlob(
        source: Base64FileRangeSource(
          path: path, offset: setAside.offset, length: setAside.length, location: dataLocation))
    } else {
      guard let bytes = Data(base64Encoded: media.data) else {
        throw DeckError(.corrupt, at: dataLocation, "not valid base64")
      }
      blob = MediaBlob(data: bytes)
    }
    let actual = try blob.fingerprint()
    if let size = media.size, size != actual.size {
      throw DeckError(.corrupt, at: dataLocation, "'\(media.name)' has \(actual.size) bytes, but its size says \(size)")
    }
    if let sha1 = media.sha1, sha1.lowercased() != SHA1.hex(actual.sha1) {
      throw DeckError(
        .corrupt, at: dataLocation, "the SHA-1 of '\(media.name)' is \(SHA1.hex(actual.sha1)), but its sha1 says \(sha1)")
    }
    return blob
  }
}
