import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an entry of a folder is when it is not a regular file; its description ("a named pipe")
/// is how messages name it.
package enum NonRegularFileKind: Sendable, Equatable, CustomStringConvertible {
  case folder
  case namedPipe
  case device
  case socket
  /// A symbolic link whose target does not exist.
  case danglingLink
  case other

  package var description: String {
    switch self {
    case .folder: "a folder"
    case .namedPipe: "a named pipe"
    case .device: "a device"
    case .socket: "a socket"
    case .danglingLink: "a symbolic link that leads nowhere"
    case .other: "an entry of another kind"
    }
  }
}

extension FileManager {
  /// What the entry at `path` is when it is not a regular file (symbolic links followed); nil for
  /// a regular file, or when there is no entry at `path` at all.
  ///
  /// Readers of folders (a CrowdAnki folder, a json-dir folder, a Core Data store's external
  /// data) ask before they open a file the folder names: opening a named pipe waits for a writer
  /// that may never come, and a link to a device such as `/dev/zero` has no end, so reading either
  /// would never finish.
  package func notRegularFileKind(atPath path: String) -> NonRegularFileKind? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      var link = stat()
      return lstat(path, &link) == 0 ? .danglingLink : nil
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return .folder
    case S_IFIFO: return .namedPipe
    case S_IFCHR, S_IFBLK: return .device
    case S_IFSOCK: return .socket
    default: return .other
    }
  }
}
