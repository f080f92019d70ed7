import DeckAnki
import DeckCore
import Foundation

/// A tag as Anki's search `tag:TEXT` takes it (`rslib/src/search/sqlwriter.rs`): a note matches
/// when one of its tags is `TEXT` or a subtag of it (`TEXT::…`), ignoring case. `*` stands for
/// any run of characters but white space and `_` for one (`\*` and `\_` for the characters
/// themselves, `\:` for `:`, as Anki's parser reads them); `none` finds the notes without
/// tags, and `*` every note.
///
/// ```swift
/// let verbs = try TagSearch("grammar::verb*")
/// verbs.matches(tags: ["Grammar::Verbs::Irregular"])  // true
/// ```
public struct TagSearch: Sendable, Equatable {
  /// The text as given.
  public let text: String
  private let kind: Kind

  private enum Kind: Sendable, Equatable {
    case untagged
    case everything
    /// Matches one tag or a subtag of it.
    case pattern(AnkiSearchPattern)
  }

  /// The search for `text`.
  ///
  /// - Throws: ``DeckError/Kind/invalidRequest`` at `location` when `text` is empty or holds
  ///   white space (a tag has none, so Anki's search would find nothing).
  public init(_ text: String, at location: SourceLocation = SourceLocation(file: "")) throws {
    self.text = text
    guard !text.isEmpty else { throw DeckError(.invalidRequest, at: location, "a tag to search for is empty") }
    if text.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) }) {
      throw DeckError(
        .invalidRequest, at: location,
        "the tag '\(text)' holds white space, which no tag has (tags are separated by it)")
    }
    if Self.findsUntaggedNotes(text) {
      kind = .untagged
    } else if text == "*" {
      kind = .everything
    } else {
      kind = .pattern(
        AnkiSearchPattern(
          AnkiSearchPattern.unescaped(text.canonicallyComposed), wildcard: .notWhiteSpace,
          childSeparator: Array("::".unicodeScalars)))
    }
  }

  /// Whether `text` is the search for the notes without tags: `none`, in lower case (Anki takes
  /// `NONE` for a tag of that name, in any case).
  static func findsUntaggedNotes(_ text: String) -> Bool { text == "none" }

  /// Whether the search looks at tags one by one: not `none` or `*`, which are about notes.
  var findsTags: Bool {
    if case .pattern = kind { return true }
    return false
  }

  /// Whether a note with these tags matches, its tags compared as ``matches(tag:spelling:)``
  /// compares them.
  public func matches(tags: [String], spelling: AnkiNameSpelling = .imported) -> Bool {
    switch kind {
    case .untagged: return tags.isEmpty
    case .everything: return true
    case .pattern: return tags.contains { matches(tag: $0, spelling: spelling) }
    }
  }

  /// Whether this one tag is the searched tag or a subtag of it (never, for `none` and `*`,
  /// which are about notes rather than tags), as Anki holds it when it holds tags as `spelling`
  /// says: by default as Anki's import stores it (a package may hold `a::::b`, which Anki's
  /// import stores, and its search finds, as `a::blank::b` only), or, restored from a
  /// collection package, as the file spells it (`a::::b`, in the composition the file gives).
  public func matches(tag: String, spelling: AnkiNameSpelling = .imported) -> Bool {
    guard case .pattern(let pattern) = kind else { return false }
    let held = spelling.keepsTags ? tag : ImportedTags.storedSpelling(tag)
    return pattern.matchesNameOrChild(Array(held.unicodeScalars))
  }
}
