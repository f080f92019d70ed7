import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder whose own files a reader may open, and nothing beyond it.
///
/// A deck folder is often someone else's (a CrowdAnki deck cloned from a public repository, a
/// json-dir backup, an app's store copied from a device), and git, tar and zip keep symbolic
/// links. A link such as `media/cat.png → /home/me/.ssh/id_ed25519` or `→ ../../../notes.txt`
/// would otherwise carry a file from outside the folder into the output, which its user may then
/// share. Readers ask ``outsideLink(at:)`` before they open an entry, and refuse or skip one
/// that leads out. Links that stay inside the folder are followed as before.
package struct FolderBoundary: Sendable {
  /// The folder, with every symbolic link on its path resolved (as the user named it when it
  /// cannot be resolved).
  package let root: String

  /// The boundary of the folder at `folder`; the folder itself may be reached through a link.
  package init(folder: String) {
    root = Self.resolved(folder) ?? URL(fileURLWithPath: folder).standardizedFileURL.path
  }

  /// The link the entry at `path` is (or passes through) when it leads outside the folder, every
  /// link resolved; nil when it stays inside, and when there is no entry at `path` or its link
  /// leads nowhere (those are reported as what they are, not as an escape).
  package func outsideLink(at path: String) -> OutsideLink? {
    guard let target = Self.resolved(path), !contains(resolved: target) else { return nil }
    return OutsideLink(target: target, folder: root)
  }

  /// Whether the resolved path `target` is the folder or lies below it.
  private func contains(resolved target: String) -> Bool {
    if target == root { return true }
    return target.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  /// `path` with every symbolic link and `.`/`..` resolved (`realpath(3)`); nil when some part of
  /// it does not exist.
  private static func resolved(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }
}

/// An entry of a folder that leads outside it; its description ("a symbolic link to /etc/hosts,
/// outside the folder /tmp/Deck") is how messages name it.
package struct OutsideLink: Sendable, Equatable, CustomStringConvertible {
  /// Where the entry leads, every link resolved.
  package let target: String
  /// The folder it leads out of, every link resolved.
  package let folder: String

  package var description: String { "a symbolic link to \(target), outside the folder \(folder)" }
}
