import Foundation

/// A scratch folder for inputs that readers take as a folder (a CrowdAnki folder, a json-dir
/// folder), in memory-backed /dev/shm when there is one, emptied before each input.
public final class FuzzScratchFolder: @unchecked Sendable {
  /// The folder's path; its last component is `name`, which readers may use (CrowdAnki's
  /// `<folder>.json`).
  public let path: String

  /// Creates the scratch folder's name: `deckport-fuzz-<pid>/<name>`.
  public init(name: String) {
    let shm = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let parent = (shm as NSString).appendingPathComponent("deckport-fuzz-\(getpid())")
    path = (parent as NSString).appendingPathComponent(name)
    outsideFile = (parent as NSString).appendingPathComponent("outside-\(name).secret")
    try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: outsideFile, contents: Self.outsideBytes)
    Self.parents.append(parent)
    atexit { for parent in FuzzScratchFolder.parents { try? FileManager.default.removeItem(atPath: parent) } }
  }

  /// A file beside the folder, outside it, that ``Special/outsideLink`` leads to: no reader of
  /// the folder may carry its bytes (``outsideBytes``) into a collection.
  public let outsideFile: String

  /// The bytes of ``outsideFile``.
  public static let outsideBytes = Data("deckport fuzz: a file outside the folder, which no reader may take in\n".utf8)

  /// The folders `atexit` removes (a C callback cannot capture them).
  nonisolated(unsafe) private static var parents: [String] = []

  /// Empties the folder, making it when it is missing.
  public func reset() {
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Writes `data` at `relative` inside the folder, making the folders on the way; a `relative`
  /// ending in `/` makes a folder instead. Returns false, writing nothing, when `relative` would
  /// leave the folder (an absolute path, an empty, `.` or `..` component, a NUL byte) or has more
  /// than `depth` components, or when a file already stands where a folder must go.
  @discardableResult
  public func write(_ data: Data, at relative: String, depth: Int = 2) -> Bool {
    let isFolder = relative.hasSuffix("/")
    guard let target = place(isFolder ? String(relative.dropLast()) : relative, depth: depth) else { return false }
    if isFolder {
      return (try? FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)) != nil
    }
    return FileManager.default.createFile(atPath: target, contents: data)
  }

  /// What ``make(_:at:depth:)`` puts where a file would be: entries a folder from a repository
  /// or a download may hold, that are not regular files.
  public enum Special: UInt8, CaseIterable {
    /// A named pipe: opening it for reading waits for a writer that never comes.
    case fifo
    /// A symbolic link to `/dev/zero`, a file without end.
    case endlessLink
    /// A symbolic link to a file that does not exist.
    case danglingLink
    /// A symbolic link to the folder it is in (a loop).
    case loopLink
    /// A symbolic link to ``outsideFile``, a regular file outside the folder.
    case outsideLink
  }

  /// Makes `special` at `relative` inside the folder, with the rules of ``write(_:at:depth:)``.
  @discardableResult
  public func make(_ special: Special, at relative: String, depth: Int = 2) -> Bool {
    guard let target = place(relative, depth: depth) else { return false }
    switch special {
    case .fifo: return mkfifo(target, 0o600) == 0
    case .endlessLink: return symlink("/dev/zero", target) == 0
    case .danglingLink: return symlink("no such file", target) == 0
    case .loopLink: return symlink(".", target) == 0
    case .outsideLink: return symlink(outsideFile, target) == 0
    }
  }

  /// The path of `relative` inside the folder, its parent folders made, or nil when it would leave
  /// the folder or has more than `depth` components.
  private func place(_ relative: String, depth: Int) -> String? {
    let components = relative.split(separator: "/", omittingEmptySubsequences: false)
    guard !components.isEmpty, components.count <= depth, !relative.contains("\0"),
      components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
    else { return nil }
    let target = (path as NSString).appendingPathComponent(components.joined(separator: "/"))
    let folder = (target as NSString).deletingLastPathComponent
    guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil
    else { return nil }
    return target
  }
}
