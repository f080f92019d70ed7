import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileManager {
  /// `path` as given, or, when the entry there is a symbolic link, the path of what it leads to
  /// (through every link on the way): what SQLite opens, and what an app reads, through the link.
  /// A copy of a relative link would lead nowhere, and a file renamed over a link replaces the
  /// link and leaves the file the app reads as it was.
  package func linkTarget(ofPath path: String) -> String {
    var entry = stat()
    guard lstat(path, &entry) == 0, (entry.st_mode & S_IFMT) == S_IFLNK else { return path }
    return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }
}
