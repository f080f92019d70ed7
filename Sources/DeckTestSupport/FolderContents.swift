import Foundation

/// What a folder holds, for tests that check a command or a writer left nothing it should not.
public enum FolderContents {
  /// The names of the entries in `folder`, hidden ones included, sorted.
  public static func names(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }
}
