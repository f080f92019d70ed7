import DeckCore

/// The text of one of Anki's searches (`deck:TEXT`, `tag:TEXT`) as the pattern Anki makes of it,
/// matched without a regular expression. Anki's parser first takes `\"`, `\:`, `\(`, `\)` and
/// `\-` for the characters themselves (`unescape` in `rslib/src/search/parser.rs`), then
/// `to_custom_re` (`rslib/src/text.rs`) makes `*` any run of characters and `_` one, keeps `\*`,
/// `\_` and `\\` for the characters themselves, and takes everything else literally; Rust's
/// `regex` matches it under `(?i)`, comparing letters by Unicode simple case folding
/// (``SimpleCaseFolding``). The one reader of wildcards of ``TagSearch`` and ``DeckSearch``.
///
/// Where Anki's parser refuses a backslash before any other character (or at the end), deckport
/// takes the backslash literally, so a name holding one is still found as it is written.
///
/// Matching simulates the pattern's automaton over the text, every position it may be at in step:
/// time grows with the pattern's length times the text's, whatever their shape (a backtracking
/// engine takes seconds for `*a*a*a*a*b` against a long name of `a`s).
struct AnkiSearchPattern: Sendable, Equatable {
  /// What one step of the pattern matches.
  enum Element: Sendable, Equatable {
    /// This scalar, its ``SimpleCaseFolding/key(_:)``: any scalar of the same key.
    case scalar(Unicode.Scalar)
    /// `_`: one scalar the wildcard matches.
    case one
    /// `*`: any run of scalars the wildcard matches, none too.
    case run
  }

  /// What a wildcard (`_`, `*`) matches: the class Anki's pattern puts in their place.
  enum Wildcard: Sendable, Equatable {
    /// Rust's `.`: any scalar but a line feed (`deck:`).
    case anyButLineFeed
    /// Rust's `\S`: any scalar that is not Unicode white space (`tag:`).
    case notWhiteSpace

    func matches(_ scalar: Unicode.Scalar) -> Bool {
      switch self {
      case .anyButLineFeed: scalar != "\n"
      case .notWhiteSpace: !scalar.properties.isWhitespace
      }
    }
  }

  /// The steps, with no two runs in a row (`**` is `*`).
  let elements: [Element]
  let wildcard: Wildcard
  /// What follows a name for a child of it to start (`::` for a tag, U+001F in a deck's name as
  /// Anki keeps it).
  let childSeparator: [Unicode.Scalar]

  /// Whether it holds a wildcard (Anki's `is_glob`).
  var isGlob: Bool {
    elements.contains { element in
      if case .scalar = element { return false }
      return true
    }
  }

  /// The pattern of `text` (``unescaped(_:)`` already): `*` is a run, `_` one scalar, `\*`, `\_`
  /// and `\\` the characters themselves, and every other character, a lone backslash too, itself.
  init(_ text: String, wildcard: Wildcard, childSeparator: [Unicode.Scalar]) {
    self.init(elements: Self.elements(of: text), wildcard: wildcard, childSeparator: childSeparator)
  }

  /// The pattern of a name of `levels` (each ``unescaped(_:)`` already, as for
  /// ``init(_:wildcard:childSeparator:)``), `separator` between each two; a child's name goes on
  /// with `separator` too.
  init(levels: [String], separator: Unicode.Scalar, wildcard: Wildcard) {
    var elements: [Element] = []
    for (index, level) in levels.enumerated() {
      if index > 0 { elements.append(.scalar(SimpleCaseFolding.key(separator))) }
      elements += Self.elements(of: level)
    }
    self.init(elements: elements, wildcard: wildcard, childSeparator: [separator])
  }

  private init(elements: [Element], wildcard: Wildcard, childSeparator: [Unicode.Scalar]) {
    self.elements = elements
    self.wildcard = wildcard
    self.childSeparator = childSeparator
  }

  /// The steps of `text`.
  private static func elements(of text: String) -> [Element] {
    var elements: [Element] = []
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\\":
        if let next = scalars.first, next == "*" || next == "_" || next == "\\" {
          scalars.removeFirst()
          elements.append(.scalar(next))
        } else {
          elements.append(.scalar("\\"))
        }
      case "*": if elements.last != .run { elements.append(.run) }
      case "_": elements.append(.one)
      default: elements.append(.scalar(SimpleCaseFolding.key(scalar)))
      }
    }
    return elements
  }

  /// `text` with the parser's escapes taken for their characters (`\:` is `:`), read scalar by
  /// scalar as Anki reads it; `\\`, `\*` and `\_` stay escaped, for ``init(_:wildcard:)``.
  static func unescaped(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      guard scalar == "\\", let next = scalars.first else {
        result.append(scalar)
        continue
      }
      if next == "\\" {
        scalars.removeFirst()
        result.append(contentsOf: "\\\\".unicodeScalars)
      } else if "\":()-".unicodeScalars.contains(next) {
        scalars.removeFirst()
        result.append(next)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// Whether `name` is a name the pattern matches or a child of one: the pattern matches its start
  /// up to its end or up to a ``childSeparator`` (`^(?:PATTERN)(?:$|SEPARATOR)`, as Anki's
  /// `deck:` and `tag:` patterns end).
  func matchesNameOrChild(_ name: [Unicode.Scalar]) -> Bool {
    let text = name
    let accepting = elements.count
    // The positions the pattern may be at after the text read so far, each once (`seen` holds
    // the step at which a position was last added).
    var current: [Int] = []
    var next: [Int] = []
    var seen = [Int](repeating: -1, count: accepting + 1)
    func add(_ position: Int, to positions: inout [Int], at step: Int) {
      var position = position
      while seen[position] != step {
        seen[position] = step
        positions.append(position)
        // A run may match nothing: the position after it is reached too.
        guard position < accepting, elements[position] == .run else { return }
        position += 1
      }
    }
    add(0, to: &current, at: 0)
    for (offset, scalar) in text.enumerated() {
      if seen[accepting] == offset, Self.hasSeparator(childSeparator, in: text, at: offset) { return true }
      let key = SimpleCaseFolding.key(scalar)
      let isWildcard = wildcard.matches(scalar)
      next.removeAll(keepingCapacity: true)
      for position in current where position < accepting {
        switch elements[position] {
        case .scalar(let expected): if expected == key { add(position + 1, to: &next, at: offset + 1) }
        case .one: if isWildcard { add(position + 1, to: &next, at: offset + 1) }
        case .run: if isWildcard { add(position, to: &next, at: offset + 1) }
        }
      }
      if next.isEmpty { return false }
      swap(&current, &next)
    }
    return seen[accepting] == text.count
  }

  /// Whether `separator` occurs in `text` at `offset`.
  private static func hasSeparator(_ separator: [Unicode.Scalar], in text: [Unicode.Scalar], at offset: Int) -> Bool {
    guard text.count - offset >= separator.count else { return false }
    return separator.indices.allSatisfy { text[offset + $0] == separator[$0] }
  }
}
