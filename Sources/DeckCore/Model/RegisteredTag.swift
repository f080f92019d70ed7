/// A tag in a collection's list of tags (Anki's `tags` table; the `col` row's `tags` JSON in
/// schema 11): the tags the browser's sidebar shows, each with its sync state and whether it is
/// collapsed there.
///
/// The list is a collection's, read from and written to collection packages only: Anki's deck
/// export leaves it empty and its deck import registers the notes' tags itself. It may name tags
/// no note has (the parent of nested tags, a tag whose notes were deleted) until Anki's Check
/// Database clears them.
public struct RegisteredTag: Sendable, Hashable {
  /// The tag (`a::b`).
  public var name: String
  /// The update sequence number: -1 while the tag waits to be synced.
  public var updateSequenceNumber: Int64
  /// Whether it is collapsed in the browser's sidebar; nil when the source does not say (a
  /// collection of schema 16 or older keeps no such state).
  public var isCollapsed: Bool?

  /// Creates a tag of the list.
  public init(name: String, updateSequenceNumber: Int64 = -1, isCollapsed: Bool? = nil) {
    self.name = name
    self.updateSequenceNumber = updateSequenceNumber
    self.isCollapsed = isCollapsed
  }
}
