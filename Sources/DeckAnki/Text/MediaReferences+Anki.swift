import DeckCore
import Foundation

/// The media references Anki's package export collects beyond the field tags of
/// ``MediaReferences/fileNames(in:)``: `_`-prefixed files named by note type CSS and templates,
/// and the images Anki renders from LaTeX in fields.
///
/// The patterns are those of Anki's `rslib/src/text.rs` (`UNDERSCORED_CSS_IMPORTS`,
/// `UNDERSCORED_REFERENCES`) and `rslib/src/latex.rs` (`LATEX`, `fname_for_latex`).
extension MediaReferences {
  /// `_`-prefixed files a note type's CSS names: `@import "_x.css"` (or single-quoted) and
  /// `url(_x)`, `url("_x")`, `url('_x')`.
  public static func underscoredFileNames(inCSS css: String) -> [String] {
    UnderscoredNameScan.cssImports(in: css)
  }

  /// `_`-prefixed files a card template names: `[sound:_x]`, the strings `"_x"` and `'_x'`, and
  /// unquoted `src=_x` or `data=_x` (up to the next `>`, spaces included, as Anki reads it).
  public static func underscoredFileNames(inTemplate template: String) -> [String] {
    UnderscoredNameScan.templateReferences(in: template)
  }

  /// ``underscoredFileNames(inCSS:)`` done with Anki's regular expression (the byte scan it uses
  /// instead is checked against this).
  static func underscoredFileNamesWithPattern(inCSS css: String) -> [String] {
    firstGroups(of: AnkiPatterns.underscoredCSSImports, in: css)
  }

  /// ``underscoredFileNames(inTemplate:)`` done with Anki's regular expression.
  static func underscoredFileNamesWithPattern(inTemplate template: String) -> [String] {
    firstGroups(of: AnkiPatterns.underscoredReferences, in: template)
  }

  /// The bodies ``latexFileNames(in:svg:)`` finds, found with Anki's regular expression.
  static func latexBodiesWithPattern(in field: String) -> [String] {
    guard let pattern = AnkiPatterns.latex else { return [] }
    let text = field as NSString
    return pattern.matches(in: field, options: [], range: NSRange(location: 0, length: text.length)).compactMap {
      match in
      (1...3).lazy.map { match.range(at: $0) }.first { $0.location != NSNotFound }.map { text.substring(with: $0) }
    }
  }

  /// `_`-prefixed files a note type names in its CSS and its templates' fronts and backs.
  public static func underscoredFileNames(in noteType: NoteType) -> [String] {
    var names = underscoredFileNames(inCSS: noteType.css)
    for template in noteType.templates {
      names += underscoredFileNames(inTemplate: template.questionFormat)
      names += underscoredFileNames(inTemplate: template.answerFormat)
    }
    return names
  }

  /// The media references of a field that Anki's import of a package renames: a name that is
  /// one file name as a path (``isOneFileName(_:)``) and that Anki would not store as it is
  /// (``MediaFileName/normalized(_:)``: `a:b.png`, `CON.mp3`, `a/`) becomes the name it would
  /// store.
  package struct StoredNames {
    /// The field with those references renamed, as Anki's import leaves it; nil when Anki's
    /// import would rename something in that text again (`src="???"` becomes `src=""`, which it
    /// reads as the name `""`), so that only the field as it was imports as Anki's import of it.
    package var field: String?
    /// Each name renamed (decoded), once, and the name Anki stores instead.
    package var renamed: [(from: String, to: String)]
  }

  /// The references in `field` that Anki's import renames (``StoredNames``); nil when none is.
  package static func storedNames(in field: String) -> StoredNames? {
    var renamed: [(from: String, to: String)] = []
    var seen = Set<[Unicode.Scalar]>()
    let rewritten = renamingToStoredNames(in: field) { name, stored in
      if seen.insert(Array(name.unicodeScalars)).inserted { renamed.append((name, stored)) }
    }
    guard let rewritten else { return nil }
    let isFinal = renamingToStoredNames(in: rewritten) == nil
    return StoredNames(field: isFinal ? rewritten : nil, renamed: renamed)
  }

  /// `field` with each reference Anki's import renames renamed as it renames it (nil when none
  /// is), reporting each name and its new name to `found`. With `limitedTo`, only references
  /// whose new name is one of those (the files a package reader renamed) are renamed.
  static func renamingToStoredNames(
    in field: String, limitedTo newNames: Set<[Unicode.Scalar]>? = nil, _ found: (String, String) -> Void = { _, _ in }
  ) -> String? {
    renaming(in: field) { name in
      // Most names are stored as they are: that is found first, and cheaply.
      let stored = MediaFileName.normalized(name)
      guard !MediaFileName.isUnchanged(name, by: stored), isOneFileName(name) else { return nil }
      if let newNames, !newNames.contains(Array(stored.unicodeScalars)) { return nil }
      found(name, stored)
      return stored
    }
  }

  /// `notes` with each reference to a renamed media file changed to its new name, as Anki's
  /// import changes them: a media tag or `[sound:…]` whose name Anki would store as one of
  /// `newNames` (``renamingToStoredNames(in:limitedTo:_:)``: `a|b.png` as well as the file's own
  /// `a:b.png`).
  package static func notes(_ notes: [Note], referringTo newNames: [String]) -> [Note] {
    let newNames = Set(newNames.map { Array($0.unicodeScalars) })
    var result = notes
    for index in result.indices {
      for field in result[index].fields.indices {
        if let rewritten = renamingToStoredNames(in: result[index].fields[field], limitedTo: newNames) {
          result[index].fields[field] = rewritten
        }
      }
    }
    return result
  }

  /// The normalised names (``MediaFileName/normalized(_:)``) of every file `collection`'s notes
  /// and note types refer to, the way Anki's exporter gathers them: media tags, `[sound:]` and
  /// LaTeX images in fields, `_` files in note types.
  package static func referencedNames(in collection: DeckCollection) -> Set<[Unicode.Scalar]> {
    // Notes name the same files over and over: gather the names first, normalise each once.
    var found = Set<[UInt8]>()
    let svg = Dictionary(collection.noteTypes.map { ($0.id, $0.latexSVG) }, uniquingKeysWith: { first, _ in first })
    for note in collection.notes {
      let noteSVG = svg[note.noteTypeID] ?? false
      for field in note.fields {
        for name in fileNames(in: field) { found.insert(Array(name.utf8)) }
        for name in latexFileNames(in: field, svg: noteSVG) { found.insert(Array(name.utf8)) }
      }
    }
    for noteType in collection.noteTypes {
      for name in underscoredFileNames(in: noteType) { found.insert(Array(name.utf8)) }
    }
    var names = Set<[Unicode.Scalar]>()
    for name in found {
      let normalized = MediaFileName.normalized(String(decoding: name, as: UTF8.self))
      if !normalized.isEmpty { names.insert(Array(normalized.unicodeScalars)) }
    }
    return names
  }

  /// The file names of the images Anki renders for the LaTeX in `field`
  /// (`[latex]…[/latex]`, `[$]…[/$]`, `[$$]…[/$$]`): `latex-<SHA-1 of the LaTeX>.png`, or
  /// `.svg` when the note type renders SVG.
  public static func latexFileNames(in field: String, svg: Bool) -> [String] {
    guard mayHoldLaTeX(field) else { return [] }
    var names: [String] = []
    for (form, body) in LaTeXScan.bodies(in: field) {
      let latex: String
      switch form {
      case .standard: latex = body
      case .inlineMath: latex = "$" + body + "$"
      case .displayMath: latex = "\\begin{displaymath}" + body + "\\end{displaymath}"
      }
      var plain = latex
      if let newlines = AnkiPatterns.latexNewlines {
        plain = newlines.stringByReplacingMatches(
          in: plain, options: [], range: NSRange(location: 0, length: (plain as NSString).length),
          withTemplate: "\n")
      }
      plain = AnkiFieldText.strippingHTML(plain)
      names.append("latex-\(SHA1.hex(SHA1.digest(utf8: plain))).\(svg ? "svg" : "png")")
    }
    return names
  }

  /// Whether `field` has a `[latex]` (in any case), `[$]` or `[$$]`, without which the LaTeX
  /// pattern cannot match; checked on the bytes, so the common field costs one pass.
  static func mayHoldLaTeX(_ field: String) -> Bool {
    var field = field
    return field.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return false }
      var index = 0
      // Jump from '[' to '[' (a `memchr`); most fields have none.
      while index < bytes.count, let open = memchr(base + index, Int32(UInt8(ascii: "[")), bytes.count - index) {
        let next = base.distance(to: open.assumingMemoryBound(to: UInt8.self)) + 1
        if next < bytes.count, bytes[next] == UInt8(ascii: "$") { return true }
        if startsLaTeXTag(bytes, at: next) { return true }
        index = next
      }
      return false
    }
  }

  /// Whether `latex]`, in any case, starts at `index` of `bytes`.
  private static func startsLaTeXTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    let tag: StaticString = "latex]"
    guard index + tag.utf8CodeUnitCount <= bytes.count else { return false }
    return tag.withUTF8Buffer { tag in
      for offset in 0..<tag.count {
        let byte = bytes[index + offset]
        if (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) != tag[offset] { return false }
      }
      return true
    }
  }

  /// The first group that matched, for each match of `pattern` in `text`.
  private static func firstGroups(of pattern: NSRegularExpression?, in text: String) -> [String] {
    guard let pattern, text.utf8.contains(UInt8(ascii: "_")) else { return [] }
    let nsText = text as NSString
    var names: [String] = []
    for match in pattern.matches(in: text, options: [], range: NSRange(location: 0, length: nsText.length)) {
      for group in 1..<match.numberOfRanges where match.range(at: group).location != NSNotFound {
        names.append(nsText.substring(with: match.range(at: group)))
        break
      }
    }
    return names
  }
}

/// Compiled patterns for ``MediaReferences``' Anki extensions; `nil` only if a literal failed to
/// compile, which the tests would show at once. All but `latexNewlines` (linear: its matches are
/// short) serve only to check the byte scans that replace them (``UnderscoredNameScan``,
/// ``LaTeXScan``): a backtracking engine takes quadratic time on them.
enum AnkiPatterns {
  /// Anki's `UNDERSCORED_CSS_IMPORTS` (five alternatives: see ``UnderscoredNameScan``).
  static let underscoredCSSImports = try? NSRegularExpression(
    pattern: #"(?:@import\s+"(_[^"]*.css)"|'(_[^']*.css)')|(?:url\(\s*"(_[^"]+)"|'(_[^']+)'|(_.+?)\s*\))"#,
    options: [.caseInsensitive])

  /// Anki's `UNDERSCORED_REFERENCES`; its verbose mode makes `[^ >]` a `[^>]`.
  static let underscoredReferences = try? NSRegularExpression(
    pattern: #"\[sound:(_[^\]]+)\]|"(_[^"]+)"|'(_[^']+)'|\b(?:src|data)=(_[^>]+)"#,
    options: [])

  /// Anki's `LATEX`.
  static let latex = try? NSRegularExpression(
    pattern: #"\[latex\](.+?)\[/latex\]|\[\$\](.+?)\[/\$\]|\[\$\$\](.+?)\[/\$\$\]"#,
    options: [.caseInsensitive, .dotMatchesLineSeparators])

  /// Anki's `LATEX_NEWLINES`, `(?xi)<br( /)?>|<div>`: in verbose mode the space is ignored, so
  /// `<br/>` is a line break and `<br />` is not.
  static let latexNewlines = try? NSRegularExpression(pattern: #"<br/?>|<div>"#, options: [.caseInsensitive])
}
