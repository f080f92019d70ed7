import Foundation

/// A card template parsed as Anki parses it (`rslib/src/template.rs`, learned, not copied): text,
/// HTML comments, `{{Field}}` replacements with their filters, and `{{#Field}}…{{/Field}}` and
/// `{{^Field}}…{{/Field}}` sections.
///
/// The rules that decide what a template means, each Anki's:
/// * A tag runs from `{{` to the first `}}` after it, across lines; `{{` with no `}}` after it is
///   text. A template that starts (after white space) with `{{=<% %>=}}` uses `<%` and `%>`
///   instead (Anki's legacy alternative syntax).
/// * `<!--` to the first `-->` is a comment: kept in the output as it is, tags inside it unread.
/// * Inside a tag, leading `{` and surrounding white space are dropped; then `#`, `^` or `/`
///   opens, opens negated or closes a section, and anything else is a replacement whose parts
///   between `:` are filters and, last, the field name (`{{text:hint:Back}}` applies `hint`,
///   then `text`, to `Back`).
/// * A section closed by another name, a closing tag with no section open, and a section left
///   open are errors (``SyntaxError``).
package struct AnkiTemplate: Sendable, Equatable {
  /// One piece of a parsed template.
  package indirect enum Node: Sendable, Equatable {
    /// Text, written as it is.
    case text(Substring)
    /// An HTML comment's inside, written back between `<!--` and `-->`.
    case comment(Substring)
    /// `{{filter:…:key}}`: the field named `key` through `filters`, in the order they apply.
    case replacement(key: Substring, filters: [Substring])
    /// `{{#key}}…{{/key}}`: the children when the field is not empty.
    case conditional(key: Substring, children: [Node])
    /// `{{^key}}…{{/key}}`: the children when the field is empty.
    case negatedConditional(key: Substring, children: [Node])
  }

  /// Why a template cannot be parsed.
  package enum SyntaxError: Error, Sendable, Equatable {
    /// `{{#key}}` or `{{^key}}` has no `{{/key}}`.
    case sectionNotClosed(Substring)
    /// `{{/closed}}` where `open` (or no section) is open.
    case sectionNotOpen(closed: Substring, open: Substring?)
  }

  /// The template's nodes, in order.
  package var nodes: [Node]

  /// How deep sections may nest before the rest of the template is refused as not closed: far
  /// beyond any real template, and a bound on the parser's recursion.
  package static let maximumSectionDepth = 200

  /// Parses `template`.
  package init(parsing template: String) throws(SyntaxError) {
    var tokens = Tokens(template)
    nodes = try Self.parse(&tokens, closing: nil, depth: 0)
  }

  private static func parse(_ tokens: inout Tokens, closing open: Substring?, depth: Int) throws(SyntaxError)
    -> [Node]
  {
    var nodes: [Node] = []
    while let token = tokens.next() {
      switch token {
      case .text(let text): nodes.append(.text(text))
      case .comment(let text): nodes.append(.comment(text))
      case .tag(let inside):
        let tag = Self.classify(inside)
        switch tag {
        case .replacement(let body):
          var parts = body.split(separator: ":", omittingEmptySubsequences: false)
          let key = parts.removeLast()
          nodes.append(.replacement(key: key, filters: parts.reversed()))
        case .open(let key, let negated):
          guard depth < maximumSectionDepth else { throw .sectionNotClosed(key) }
          let children = try parse(&tokens, closing: key, depth: depth + 1)
          nodes.append(negated ? .negatedConditional(key: key, children: children) : .conditional(key: key, children: children))
        case .close(let key):
          if let open, open == key { return nodes }
          throw .sectionNotOpen(closed: key, open: open)
        }
      }
    }
    if let open { throw .sectionNotClosed(open) }
    return nodes
  }

  /// What a tag's inside says.
  private enum Tag {
    case replacement(Substring)
    case open(Substring, negated: Bool)
    case close(Substring)
  }

  private static func classify(_ inside: Substring) -> Tag {
    let body = inside.drop { $0 == "{" }.trimmingRustWhiteSpace()
    guard body.utf8.count >= 2, let first = body.first else { return .replacement(body) }
    switch first {
    case "#": return .open(body.dropFirst().trimmingRustWhiteSpace(), negated: false)
    case "^": return .open(body.dropFirst().trimmingRustWhiteSpace(), negated: true)
    case "/": return .close(body.dropFirst().trimmingRustWhiteSpace())
    default: return .replacement(body)
    }
  }
}

/// The tokens of a template: text, comments and tags, in order.
private struct Tokens {
  enum Token {
    case text(Substring)
    case comment(Substring)
    /// The inside of a tag, between its delimiters.
    case tag(Substring)
  }

  private var rest: Substring
  private let open: String
  private let close: String
  /// Whether a tag or a comment may still come: once a `{{` (or `<!--`) has no closing after it,
  /// no later one has.
  private var mayHoldTag = true
  private var mayHoldComment = true

  private static let alternativeSyntax = "{{=<% %>=}}"

  init(_ template: String) {
    var rest = template[...]
    let trimmed = rest.trimmingRustWhiteSpaceAtStart()
    if trimmed.hasPrefix(Self.alternativeSyntax) {
      rest = trimmed
      while rest.hasPrefix(Self.alternativeSyntax) { rest = rest.dropFirst(Self.alternativeSyntax.count) }
      (open, close) = ("<%", "%>")
    } else {
      (open, close) = ("{{", "}}")
    }
    self.rest = rest
  }

  mutating func next() -> Token? {
    guard !rest.isEmpty else { return nil }
    let tag = mayHoldTag ? Self.delimited(in: rest, open: open, close: close) : nil
    if tag == nil { mayHoldTag = false }
    var comment: (start: String.Index, inside: Range<String.Index>, end: String.Index)? = nil
    if mayHoldComment {
      // Only a comment that starts before the tag can come first.
      let limit = tag?.start ?? rest.endIndex
      comment = Self.delimited(in: rest[..<limit], open: "<!--", close: "-->", closingIn: rest)
      if comment == nil, tag == nil { mayHoldComment = false }
    }
    let first = [tag, comment].compactMap { $0 }.min { $0.start < $1.start }
    guard let first else {
      defer { rest = rest[rest.endIndex...] }
      return .text(rest)
    }
    if first.start > rest.startIndex {
      defer { rest = rest[first.start...] }
      return .text(rest[..<first.start])
    }
    defer { rest = rest[first.end...] }
    return first.start == tag?.start ? .tag(rest[first.inside]) : .comment(rest[first.inside])
  }

  /// The first `open` in `text` that has a `close` after it (searched for in `closingIn`, which
  /// `text` begins), with its inside and where it ends.
  private static func delimited(in text: Substring, open: String, close: String, closingIn whole: Substring? = nil)
    -> (start: String.Index, inside: Range<String.Index>, end: String.Index)?
  {
    let whole = whole ?? text
    guard let start = text.range(of: open) else { return nil }
    guard let end = whole[start.upperBound...].range(of: close) else { return nil }
    return (start.lowerBound, start.upperBound..<end.lowerBound, end.upperBound)
  }
}
