import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileManager {
  /// What the entry at `path` is when it is not a regular file (symbolic links followed): "a
  /// folder", "a named pipe", "a device", "a socket", "a symbolic link that leads nowhere"; nil for a
  /// regular file, or when there is no entry at `path` at all.
  ///
  /// Readers of folders (a CrowdAnki folder, a json-dir folder) ask before they open a file the
  /// folder names: opening a named pipe waits for a writer that may never come, and a link to a
  /// device such as `/dev/zero` has no end, so reading either would never finish.
  package func notRegularFileKind(atPath path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      var link = stat()
      return lstat(path, &link) == 0 ? "a symbolic link that leads nowhere" : nil
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a named pipe"
    case S_IFCHR, S_IFBLK: return "a device"
    case S_IFSOCK: return "a socket"
    default: return "an entry of another kind"
    }
  }
}
