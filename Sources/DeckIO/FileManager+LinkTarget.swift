import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileManager {
  /// `path` as given, or, when the entry there is a symbolic link, the path it leads to (through
  /// every link on the way, each relative one read from its own folder), whether or not anything
  /// is there yet: what SQLite opens, and what an app reads, through the link. A copy of a relative
  /// link would lead nowhere, and a file renamed over a link replaces the link and leaves the file
  /// the app reads as it was. A loop of links (40 links or more) leaves `path` as given.
  package func linkTarget(ofPath path: String) -> String {
    var current = path
    for _ in 0..<40 {
      var entry = stat()
      guard lstat(current, &entry) == 0, (entry.st_mode & S_IFMT) == S_IFLNK else { return current }
      guard let destination = try? destinationOfSymbolicLink(atPath: current) else { return path }
      current =
        destination.hasPrefix("/")
        ? destination
        : URL(fileURLWithPath: (current as NSString).deletingLastPathComponent).appendingPathComponent(destination)
          .standardizedFileURL.path
    }
    return path
  }
}
