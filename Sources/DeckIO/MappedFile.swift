import CMappedPages
import DeckCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file mapped into memory read-only, whose pages the reader lets go of once it has passed
/// them (``release(below:)``), so reading a document of gigabytes does not leave gigabytes
/// resident: a page let go of is read again from the file if it is touched again.
///
/// Another program may shorten or rewrite the file while it is mapped. A page past the new end
/// then reads as zeros instead of ending the process (`CMappedPages`), and
/// ``requireUnchanged()`` tells the reader that what it read is not the file.
package final class MappedFile {
  /// The file's bytes.
  package let bytes: UnsafeRawBufferPointer
  private let mapping: UnsafeMutableRawPointer?
  private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
  /// Everything below this offset has been let go of.
  private var releasedBelow = 0
  /// The open file, kept to see whether it changes.
  private let descriptor: Int32
  /// Its size and modification time when it was mapped.
  private let mappedVersion: FileVersion
  /// The handle of the watch on the mapping's pages, or -1.
  private let watch: Int32
  private let location: SourceLocation

  /// Maps the file at `path`.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` naming `location` when it cannot be opened or
  ///   mapped.
  package init(path: String, location: SourceLocation) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(String(cString: strerror(errno))))")
    }
    guard let version = FileVersion(of: descriptor) else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(reason))")
    }
    if version.isDirectory {
      close(descriptor)
      throw DeckError(.unreadableFile, at: location, "cannot read the file (it is a directory)")
    }
    self.descriptor = descriptor
    self.location = location
    mappedVersion = version
    let size = Int(version.size)
    guard size > 0 else {
      mapping = nil
      bytes = UnsafeRawBufferPointer(start: nil, count: 0)
      watch = -1
      return
    }
    let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
    guard let address, address != MAP_FAILED else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(reason))")
    }
    mapping = address
    bytes = UnsafeRawBufferPointer(start: address, count: size)
    watch = deckport_mapped_pages_watch(address, size)
  }

  deinit {
    deckport_mapped_pages_unwatch(watch)
    if let mapping { munmap(mapping, bytes.count) }
    close(descriptor)
  }

  /// Throws unless every byte read from ``bytes`` so far was the file's: a page of it could not
  /// be read (another program shortened the file after it was mapped, or the disk failed), or
  /// the file's size or modification time changed (another program wrote to it). A reader calls
  /// this when it is done with the mapping, whether it succeeded or not, so that what it made of
  /// zeros or of two versions of the file is never taken for the file.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` naming the file.
  package func requireUnchanged() throws(DeckError) {
    if deckport_mapped_pages_failed(watch) != 0 {
      throw DeckError(
        .unreadableFile, at: location,
        "the file was shortened while deckport read it (another program wrote to it), or the disk could not give part of it back; nothing was taken from it"
      )
    }
    guard let now = FileVersion(of: descriptor), now.size == mappedVersion.size, now.modified == mappedVersion.modified
    else {
      throw DeckError(
        .unreadableFile, at: location,
        "the file changed while deckport read it (another program wrote to it); nothing was taken from it, so run deckport again once the file is no longer being written"
      )
    }
  }

  /// A file's size and modification time, which change when it is written.
  private struct FileVersion {
    var size: Int64
    /// Seconds and nanoseconds.
    var modified: [Int]
    var isDirectory: Bool

    init?(of descriptor: Int32) {
      var status = stat()
      guard fstat(descriptor, &status) == 0 else { return nil }
      size = Int64(status.st_size)
      #if canImport(Darwin)
      modified = [Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec)]
      #else
      modified = [Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
      #endif
      isDirectory = (status.st_mode & S_IFMT) == S_IFDIR
    }
  }

  /// Lets go of the pages wholly below `offset`.
  package func release(below offset: Int) {
    guard let mapping else { return }
    let end = min(offset, bytes.count) / pageSize * pageSize
    guard end > releasedBelow else { return }
    _ = madvise(mapping + releasedBelow, end - releasedBelow, Int32(MADV_DONTNEED))
    releasedBelow = end
  }

  /// Lets go of every page (after a pass that will not come back to them soon).
  package func releaseAll() {
    guard let mapping, releasedBelow < bytes.count else { return }
    _ = madvise(mapping, bytes.count, Int32(MADV_DONTNEED))
    releasedBelow = 0
  }
}
