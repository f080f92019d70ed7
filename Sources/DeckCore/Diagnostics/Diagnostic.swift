/// Something a reader or writer could not keep or had to change, reported instead of being
/// done silently. The CLI prints each as a warning; strict conversion (``DeckSetting/strict``)
/// turns any of them into a failure.
///
/// Its `description` shows control and bidirectional characters the way ``TerminalText`` does,
/// so a warning that names something from the input cannot drive the terminal;
/// ``exactDescription`` is the same line with every name exactly as the input holds it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// What kind of loss or change this is, as a short stable tag (``Category/mediaRenamed``,
  /// ``Category/fieldCount``).
  public var category: Category
  /// Where it happened.
  public var location: SourceLocation
  /// What happened, naming the item, with the settings it names kept typed (``DeckMessage``).
  public var wording: DeckMessage

  /// Creates a diagnostic.
  ///
  /// A string literal goes to the initialiser that takes a ``DeckMessage`` instead, so that a
  /// message it interpolates keeps its settings typed.
  @_disfavoredOverload
  public init(_ category: Category, at location: SourceLocation, _ message: String) {
    self.init(category, at: location, DeckMessage(message))
  }

  /// Creates a diagnostic whose message names settings (`"…; pass \(setting: .csvSeparator)"`).
  public init(_ category: Category, at location: SourceLocation, _ wording: DeckMessage) {
    self.category = category
    self.location = location
    self.wording = wording
  }

  /// What happened, naming the item, settings named as the library spells them; setting it
  /// replaces ``wording`` with plain words.
  public var message: String {
    get { wording.text }
    set { wording = DeckMessage(newValue) }
  }

  /// `<location>: warning: [<category>] <message>` on one line, safe to print on a terminal.
  public var description: String { TerminalText.escaped(exactDescription) }

  /// The warning as one line, every name exactly as the input holds it (for JSON output); without
  /// the location when it names nothing.
  public var exactDescription: String {
    let place = location.exactDescription
    return "\(place.isEmpty ? "" : place + ": ")warning: [\(category)] \(message)"
  }

  /// The warning with each setting its message names written as `name` gives it, in plain words
  /// (so `message`, `description` and `exactDescription` show those names).
  public func naming(_ name: (DeckSetting) -> String) -> Diagnostic {
    var copy = self
    copy.wording = DeckMessage(wording.text(naming: name))
    return copy
  }
}
