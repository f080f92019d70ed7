import DeckCore
import DeckIO
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("MappedFile: a file shortened or rewritten by another program while it is mapped")
struct MappedFileTests {
  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// A file of `pages` pages of 0x5A bytes in a new scratch folder.
  static func file(pages: Int) throws -> (TemporaryDirectory, String) {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "document.json")
    try Data(repeating: 0x5A, count: pages * pageSize).write(to: URL(fileURLWithPath: path))
    return (scratch, path)
  }

  /// The sum of the bytes, read one by one from the mapping, so that every page is touched.
  static func sum(_ bytes: UnsafeRawBufferPointer) -> Int { bytes.reduce(0) { $0 + Int($1) } }

  @Test("an unchanged file passes, after its pages were let go of and read again")
  func unchanged() throws {
    let (scratch, path) = try Self.file(pages: 4)
    let file = try MappedFile(path: path, location: SourceLocation(file: path))
    #expect(Self.sum(file.bytes) == 4 * Self.pageSize * 0x5A)
    file.releaseAll()
    #expect(Self.sum(file.bytes) == 4 * Self.pageSize * 0x5A)
    try file.requireUnchanged()
    withExtendedLifetime(scratch) {}
  }

  @Test("pages past the new end read as zeros instead of ending the process, and the reader is told")
  func shortened() throws {
    let (scratch, path) = try Self.file(pages: 8)
    let location = SourceLocation(file: path)
    let file = try MappedFile(path: path, location: location)
    // Read the first pages, then another program cuts the file to one page and a half.
    #expect(Self.sum(UnsafeRawBufferPointer(rebasing: file.bytes[0..<(2 * Self.pageSize)])) == 2 * Self.pageSize * 0x5A)
    #expect(truncate(path, off_t(Self.pageSize + Self.pageSize / 2)) == 0)
    // The kernel drops the pages past the end from every mapping: the second page keeps what
    // the file still has, everything from the third page on faults once and reads as zeros.
    let total = Self.sum(file.bytes)
    #expect(total == (Self.pageSize + Self.pageSize / 2) * 0x5A)
    #expect(file.bytes[7 * Self.pageSize] == 0)
    let error = #expect(throws: DeckError.self) { try file.requireUnchanged() }
    #expect(error?.kind == .unreadableFile)
    #expect(error?.location.file == path)
    #expect(error?.message.contains("shortened while deckport read it") == true)
    withExtendedLifetime(scratch) {}
  }

  @Test("two mappings of files that are cut short are told apart")
  func separateWatches() throws {
    let (firstScratch, first) = try Self.file(pages: 3)
    let (secondScratch, second) = try Self.file(pages: 3)
    let cut = try MappedFile(path: first, location: SourceLocation(file: first))
    let kept = try MappedFile(path: second, location: SourceLocation(file: second))
    #expect(truncate(first, 0) == 0)
    #expect(Self.sum(cut.bytes) == 0)
    #expect(Self.sum(kept.bytes) == 3 * Self.pageSize * 0x5A)
    #expect(throws: DeckError.self) { try cut.requireUnchanged() }
    try kept.requireUnchanged()
    withExtendedLifetime((firstScratch, secondScratch)) {}
  }

  @Test("a file written in place while it is mapped, without faulting, is reported as changed")
  func rewrittenInPlace() throws {
    let (scratch, path) = try Self.file(pages: 2)
    let file = try MappedFile(path: path, location: SourceLocation(file: path))
    _ = Self.sum(file.bytes)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seek(toOffset: 10)
    try handle.write(contentsOf: Data("changed".utf8))
    try handle.close()
    // A later modification time, even within the clock's resolution: set it a second ahead.
    var times = [timespec(tv_sec: time(nil) + 1, tv_nsec: 0), timespec(tv_sec: time(nil) + 1, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    let error = #expect(throws: DeckError.self) { try file.requireUnchanged() }
    #expect(error?.message.contains("the file changed while deckport read it") == true)
    withExtendedLifetime(scratch) {}
  }
}
