/// Something a reader or writer could not keep or had to change, reported instead of being
/// done silently. The CLI prints each as a warning; `--strict` turns any of them into a failure.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// What kind of loss or change this is, as a short stable tag (`media-renamed`, `field-count`).
  public var category: String
  /// Where it happened.
  public var location: SourceLocation
  /// What happened, naming the item.
  public var message: String

  /// Creates a diagnostic.
  public init(_ category: String, at location: SourceLocation, _ message: String) {
    self.category = category
    self.location = location
    self.message = message
  }

  public var description: String { "\(location): warning: [\(category)] \(message)" }
}
