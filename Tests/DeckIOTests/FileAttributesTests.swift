import DeckIO
import Foundation
import Testing

@Suite("FileManager's file attributes")
struct FileAttributesTests {
  @Test("a file's modification time in whole seconds; nil for a time before 1970 or no file")
  func modificationSeconds() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "deck.csv")
    try Data("x".utf8).write(to: URL(fileURLWithPath: path))
    func setTime(_ seconds: TimeInterval) throws {
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
    }
    try setTime(1_790_000_000.75)
    #expect(FileManager.default.modificationSeconds(atPath: path) == 1_790_000_000)
    try setTime(0)
    #expect(FileManager.default.modificationSeconds(atPath: path) == 0)
    try setTime(-315_619_200)  // 1960: a clock a file system may hold, no time for a note
    #expect(FileManager.default.modificationSeconds(atPath: path) == nil)
    #expect(FileManager.default.modificationSeconds(atPath: scratch.path(for: "missing")) == nil)
    #expect(FileManager.default.fileSize(atPath: path) == 1)
  }
}
