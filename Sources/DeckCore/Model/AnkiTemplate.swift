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
/// * Names are compared byte for byte (``ExactlyComparable``), never as Swift's `==` compares
///   text: a name written in another normalization form (`Nai` + U+0308 + `ve` for `Naïve`) is
///   another name. The template is read scalar by scalar, and the delimiters byte by byte.
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
    /// `{{#key}}` or `{{^key}}` opens a section ``AnkiTemplate/maximumSectionDepth`` sections
    /// deep (Anki itself has no limit, and runs out of stack long before a hostile template's
    /// end).
    case sectionsTooDeep(Substring)
  }

  /// The template's nodes, in order.
  package var nodes: [Node]

  /// How deep sections may nest before the template is refused: far beyond any real template,
  /// and a bound on the parser's and the renderer's recursion.
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
          // Split at each `:` scalar, as Rust splits a `str` at a `char`.
          var parts = body.unicodeScalars.split(separator: ":", omittingEmptySubsequences: false).map(Substring.init)
          let key = parts.removeLast()
          nodes.append(.replacement(key: key, filters: parts.reversed()))
        case .open(let key, let negated):
          guard depth < maximumSectionDepth else { throw .sectionsTooDeep(key) }
          let children = try parse(&tokens, closing: key, depth: depth + 1)
          nodes.append(
            negated ? .negatedConditional(key: key, children: children) : .conditional(key: key, children: children))
        case .close(let key):
          // Names match byte for byte, as Anki matches them: `{{/Nai\u{308}ve}}` does not close
          // `{{#Naïve}}` (U+00EF), though Swift's `==` takes the two for one.
          if let open, open.isExactly(key) { return nodes }
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

  /// Anki's `classify_handle`, scalar by scalar as Rust reads a `str`.
  private static func classify(_ inside: Substring) -> Tag {
    let body = Substring(inside.unicodeScalars.drop { $0 == "{" }).trimmingRustWhiteSpace()
    guard body.utf8.count >= 2, let first = body.unicodeScalars.first else { return .replacement(body) }
    let rest = Substring(body.unicodeScalars.dropFirst()).trimmingRustWhiteSpace()
    switch first {
    case "#": return .open(rest, negated: false)
    case "^": return .open(rest, negated: true)
    case "/": return .close(rest)
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
    // Byte by byte, as Anki looks: a combining mark (or a joiner) right after the directive's
    // `}` makes one `Character` of the two, which `hasPrefix` would not take for `}`.
    let directive = Self.alternativeSyntax.utf8
    if trimmed.utf8.starts(with: directive) {
      rest = trimmed
      while rest.utf8.starts(with: directive) {
        rest = rest[rest.utf8.index(rest.startIndex, offsetBy: directive.count)...]
      }
      (open, close) = ("<%", "%>")
    } else {
      (open, close) = ("{{", "}}")
    }
    self.rest = rest
  }

  mutating func next() -> Token? {
    guard !rest.isEmpty else { return nil }
    var tag: Delimited? = nil
    if mayHoldTag {
      switch Self.delimited(in: rest[...], open: open, close: close, within: rest) {
      case .found(let found): tag = found
      case .none, .unclosed: mayHoldTag = false
      }
    }
    var comment: Delimited? = nil
    if mayHoldComment {
      // Only a comment that starts before the tag can come first.
      switch Self.delimited(in: rest[..<(tag?.start ?? rest.endIndex)], open: "<!--", close: "-->", within: rest) {
      case .found(let found): comment = found
      case .unclosed: mayHoldComment = false
      case .none: if tag == nil { mayHoldComment = false }
      }
    }
    guard let first = [tag, comment].compactMap({ $0 }).min(by: { $0.start < $1.start }) else {
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

  /// Where a delimited piece starts, its inside, and where it ends.
  private struct Delimited {
    let start: String.Index
    let inside: Range<String.Index>
    let end: String.Index
  }

  /// What a search for a delimited piece found.
  private enum Search {
    case found(Delimited)
    /// No opening in the text searched.
    case none
    /// An opening with no closing after it: none after a later opening either.
    case unclosed
  }

  /// The first `open` in `text` and the first `close` after it in `whole` (which `text` begins).
  private static func delimited(in text: Substring, open: String, close: String, within whole: Substring) -> Search {
    guard let start = firstRange(of: open, in: text) else { return .none }
    guard let end = firstRange(of: close, in: whole[start.upperBound...]) else { return .unclosed }
    return .found(Delimited(start: start.lowerBound, inside: start.upperBound..<end.lowerBound, end: end.upperBound))
  }

  /// Where `needle` (ASCII) first stands in `text`, found byte by byte as Anki finds it: every
  /// delimiter is ASCII, so a match starts and ends on a Unicode scalar boundary (not always on
  /// a `Character`'s: a combining mark after `}}` is text of its own, as in Anki).
  private static func firstRange(of needle: String, in text: Substring) -> Range<String.Index>? {
    let bytes = text.utf8
    guard let first = needle.utf8.first else { return nil }
    let rest = needle.utf8.dropFirst()
    var index = bytes.startIndex
    while let found = bytes[index...].firstIndex(of: first) {
      var cursor = bytes.index(after: found)
      var matched = true
      for byte in rest {
        guard cursor < bytes.endIndex, bytes[cursor] == byte else {
          matched = false
          break
        }
        cursor = bytes.index(after: cursor)
      }
      if matched { return found..<cursor }
      index = bytes.index(after: found)
    }
    return nil
  }
}
