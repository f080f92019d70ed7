import DeckCore
import DeckIO
import Foundation

extension MediaFile {
  /// Writes the file's bytes into `folder` under the file's name, streamed from the deck (a
  /// large video is never held in memory whole), and returns the new file's URL.
  ///
  /// A media name comes from the deck and is untrusted: a name that is not one safe file name
  /// (a path, `..`, a character Windows forbids, a device name) is refused, so nothing is ever
  /// written outside `folder`. The file is written under a temporary name and renamed when
  /// complete; an existing file of that name is replaced only when `replacing` is true.
  ///
  /// ```swift
  /// for file in deck.collection.media {
  ///   let saved = try file.write(into: mediaFolder)
  /// }
  /// ```
  ///
  /// - Throws: ``DeckError`` naming the file: `.invalidRequest` for an unsafe name, or for an
  ///   existing file without `replacing`; `.writeFailed` when the folder cannot be written;
  ///   the deck's read error when its bytes cannot be read (`.unreadableFile`, naming the file,
  ///   for an error of a source of the app's own).
  @discardableResult
  public func write(into folder: URL, replacing: Bool = false) throws -> URL {
    let folderPath = try FileURL.path(of: folder)
    let location = SourceLocation(file: folderPath).item("media file '\(MediaFileName.visible(name))'")
    guard MediaFileName.isSafe(name) else {
      throw DeckError(
        .invalidRequest, at: location, "is not a single safe file name, so it is not written into the folder")
    }
    let destination = folder.appending(path: name, directoryHint: .notDirectory)
    try AtomicOutput.write(to: destination.path(percentEncoded: false), replacing: replacing) { temporaryPath in
      try MediaBlob.namingSourceErrors(at: location) {
        try FileSink.writing(to: temporaryPath) { sink in try blob.forEachChunk { try sink.write($0) } }
      }
    }
    return destination
  }
}
