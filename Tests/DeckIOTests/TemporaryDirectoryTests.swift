import DeckCore
import DeckIO
import Foundation
import Testing

@Suite("TemporaryDirectory")
struct TemporaryDirectoryTests {
  @Test("is created under the temporary directory and removed with its contents on release")
  func lifecycle() throws {
    var path = ""
    do {
      let scratch = try TemporaryDirectory()
      path = scratch.path
      #expect(URL(fileURLWithPath: path).lastPathComponent.hasPrefix("deckport-"))
      #expect(path.hasPrefix(FileManager.default.temporaryDirectory.path))
      var isDirectory: ObjCBool = false
      #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
      let nested = scratch.path(for: "sub")
      try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: false)
      try Data("x".utf8).write(to: URL(fileURLWithPath: nested + "/file"))
      #expect(scratch.path(for: "a.txt") == path + "/a.txt")
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("remove() deletes at once, and twice is harmless")
  func explicitRemove() throws {
    let scratch = try TemporaryDirectory()
    try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.path(for: "f")))
    scratch.remove()
    #expect(!FileManager.default.fileExists(atPath: scratch.path))
    scratch.remove()
  }

  @Test("two directories differ")
  func unique() throws {
    let first = try TemporaryDirectory()
    let second = try TemporaryDirectory()
    #expect(first.path != second.path)
  }
}
