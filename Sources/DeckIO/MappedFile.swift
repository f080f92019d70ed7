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
package final class MappedFile {
  /// The file's bytes.
  package let bytes: UnsafeRawBufferPointer
  private let mapping: UnsafeMutableRawPointer?
  private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
  /// Everything below this offset has been let go of.
  private var releasedBelow = 0

  /// Maps the file at `path`.
  ///
  /// - Throws: ``DeckError/Kind/unreadableFile`` naming `location` when it cannot be opened or
  ///   mapped.
  package init(path: String, location: SourceLocation) throws {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(String(cString: strerror(errno))))")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(String(cString: strerror(errno))))")
    }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (it is a directory)")
    }
    let size = Int(status.st_size)
    guard size > 0 else {
      mapping = nil
      bytes = UnsafeRawBufferPointer(start: nil, count: 0)
      return
    }
    let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
    guard let address, address != MAP_FAILED else {
      throw DeckError(.unreadableFile, at: location, "cannot read the file (\(String(cString: strerror(errno))))")
    }
    mapping = address
    bytes = UnsafeRawBufferPointer(start: address, count: size)
  }

  deinit {
    if let mapping { munmap(mapping, bytes.count) }
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
