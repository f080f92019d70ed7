import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileManager {
  /// Why the folder at `path` cannot be read, as the C library words it (`Permission denied`):
  /// its entries cannot be listed, or the files in it cannot be reached. Nil when it can be read.
  ///
  /// A reader asks before it looks inside, so that a folder it may not open is told from one
  /// that holds no deck.
  package func unreadableFolderReason(atPath path: String) -> String? {
    guard let folder = opendir(path) else { return CError.message() }
    closedir(folder)
    return access(path, X_OK) == 0 ? nil : CError.message()
  }
}
