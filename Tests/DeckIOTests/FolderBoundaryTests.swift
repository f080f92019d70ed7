import DeckIO
import Foundation
import Testing

@Suite("FolderBoundary: entries that lead outside a folder")
struct FolderBoundaryTests {
  /// A folder `deck` with a file, a subfolder and links of every kind, beside a file and a folder
  /// outside it.
  struct Layout {
    let scratch: TemporaryDirectory
    var deck: String { scratch.path(for: "deck") }
    /// The scratch folder as Foundation resolves it (independently of the code under test).
    var resolvedScratch: String { URL(fileURLWithPath: scratch.path).resolvingSymlinksInPath().path }

    init() throws {
      scratch = try TemporaryDirectory()
      let manager = FileManager.default
      try manager.createDirectory(atPath: scratch.path(for: "deck/media"), withIntermediateDirectories: true)
      try manager.createDirectory(atPath: scratch.path(for: "elsewhere"), withIntermediateDirectories: true)
      try Data("own".utf8).write(to: URL(fileURLWithPath: scratch.path(for: "deck/media/cat.png")))
      try Data("secret".utf8).write(to: URL(fileURLWithPath: scratch.path(for: "secret.txt")))
      try Data("theirs".utf8).write(to: URL(fileURLWithPath: scratch.path(for: "elsewhere/dog.png")))
      let links = [
        "deck/media/alias.png": "cat.png",
        "deck/media/back-in.png": "../../deck/media/cat.png",
        "deck/media/absolute.png": scratch.path(for: "secret.txt"),
        "deck/media/relative.png": "../../secret.txt",
        "deck/media/nowhere.png": "missing.png",
        "deck/shared": "../elsewhere",
        "deck/self": ".",
        "deck-link": "deck",
      ]
      for (link, target) in links {
        try manager.createSymbolicLink(atPath: scratch.path(for: link), withDestinationPath: target)
      }
    }
  }

  @Test(
    "regular files, folders and links that stay inside are the folder's; a missing entry and a link to nothing are not escapes"
  )
  func inside() throws {
    let layout = try Layout()
    let boundary = FolderBoundary(folder: layout.deck)
    for entry in ["", "/media", "/media/cat.png", "/media/alias.png", "/media/back-in.png", "/self/media/cat.png"] {
      #expect(boundary.outsideLink(at: layout.deck + entry) == nil, "\(entry)")
    }
    #expect(boundary.outsideLink(at: layout.deck + "/media/nowhere.png") == nil)
    #expect(boundary.outsideLink(at: layout.deck + "/media/no-such-file.png") == nil)
  }

  @Test("absolute and relative links out, a linked folder and what is below it, each named by where it leads")
  func outside() throws {
    let layout = try Layout()
    let boundary = FolderBoundary(folder: layout.deck)
    let folder = layout.resolvedScratch + "/deck"
    for (entry, target) in [
      ("/media/absolute.png", "/secret.txt"), ("/media/relative.png", "/secret.txt"), ("/shared", "/elsewhere"),
      ("/shared/dog.png", "/elsewhere/dog.png"), ("/media/../../secret.txt", "/secret.txt"),
    ] {
      let link = boundary.outsideLink(at: layout.deck + entry)
      #expect(link?.target == layout.resolvedScratch + target, "\(entry)")
      #expect(link?.folder == folder, "\(entry)")
    }
    #expect(
      boundary.outsideLink(at: layout.deck + "/media/absolute.png")?.description
        == "a symbolic link to \(layout.resolvedScratch)/secret.txt, outside the folder \(folder)")
  }

  @Test("a folder named through a link is bounded by where it leads")
  func folderReachedThroughALink() throws {
    let layout = try Layout()
    let boundary = FolderBoundary(folder: layout.scratch.path(for: "deck-link"))
    #expect(boundary.root == layout.resolvedScratch + "/deck")
    #expect(boundary.outsideLink(at: layout.scratch.path(for: "deck-link/media/alias.png")) == nil)
    #expect(boundary.outsideLink(at: layout.deck + "/media/cat.png") == nil)
    #expect(boundary.outsideLink(at: layout.scratch.path(for: "deck-link/media/relative.png")) != nil)
  }

  @Test("a sibling whose name starts with the folder's is outside it")
  func siblingWithTheSamePrefix() throws {
    let layout = try Layout()
    try FileManager.default.createDirectory(atPath: layout.deck + "-old", withIntermediateDirectories: false)
    try Data("old".utf8).write(to: URL(fileURLWithPath: layout.deck + "-old/cat.png"))
    try FileManager.default.createSymbolicLink(
      atPath: layout.deck + "/old.png", withDestinationPath: "../deck-old/cat.png")
    let link = FolderBoundary(folder: layout.deck).outsideLink(at: layout.deck + "/old.png")
    #expect(link?.target == layout.resolvedScratch + "/deck-old/cat.png")
  }
}
