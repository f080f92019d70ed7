import Foundation

/// Whether two paths name one file: the one check `convert` and `migrate` make before they
/// write, so that deckport never changes its input.
package enum SameFile {
  /// Whether `first` and `second` name the same file (after resolving links, by device and
  /// inode when both exist), or the same path when they do not.
  package static func check(_ first: String, _ second: String) -> Bool {
    let a = URL(fileURLWithPath: first).resolvingSymlinksInPath().standardizedFileURL.path
    let b = URL(fileURLWithPath: second).resolvingSymlinksInPath().standardizedFileURL.path
    if a == b { return true }
    guard let left = try? FileManager.default.attributesOfItem(atPath: a),
      let right = try? FileManager.default.attributesOfItem(atPath: b)
    else { return false }
    return (left[.systemFileNumber] as? Int) == (right[.systemFileNumber] as? Int)
      && (left[.systemNumber] as? Int) == (right[.systemNumber] as? Int)
  }
}
