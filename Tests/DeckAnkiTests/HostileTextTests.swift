import DeckCore
import Testing

@testable import DeckAnki

/// About a megabyte of the shapes that made Anki's patterns take quadratic or cubic time under a
/// backtracking engine: each must finish (the time limit turns a regression into a failure, not a
/// hang) and give Anki's result.
@Suite("Hostile field text, CSS and templates finish in linear time", .timeLimit(.minutes(5)))
struct HostileTextTests {
  /// `piece` repeated to about a megabyte.
  static func megabyte(of piece: String) -> String {
    String(repeating: piece, count: 1_000_000 / piece.utf8.count)
  }

  /// Whether `result` is `expected`; a failure shows where they part, not a megabyte of each.
  static func check(_ result: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    guard result != expected else { return }
    let common = zip(result.utf8, expected.utf8).prefix { $0 == $1 }.count
    Issue.record(
      "\(result.utf8.count) bytes where \(expected.utf8.count) were expected, differing from byte \(common)",
      sourceLocation: sourceLocation)
  }

  @Test func markupWithUnclosedBlocks() {
    // Each `<style>`, `<script>` or `<!--` without its closing is a tag (or not) of its own.
    Self.check(AnkiFieldText.strippingHTML(Self.megabyte(of: "<style>")), "")
    Self.check(AnkiFieldText.strippingHTML("<é>" + Self.megabyte(of: "<ſtyle>")), "")
    Self.check(AnkiFieldText.strippingHTML(Self.megabyte(of: "<script x>")), "")
    Self.check(AnkiFieldText.strippingHTML(Self.megabyte(of: "<!-- >")), "")
    Self.check(AnkiFieldText.strippingHTML(Self.megabyte(of: "<style>") + "</style>x"), "x")
    let unclosedTags = Self.megabyte(of: "<é")
    Self.check(AnkiFieldText.strippingHTML(unclosedTags), unclosedTags)
    let entities = String(repeating: "<!--<style>&amp;", count: 60_000)
    Self.check(AnkiFieldText.strippingHTMLPreservingEntities(entities), String(repeating: "&amp;", count: 60_000))
  }

  @Test func textLineWithUnclosedBrackets() {
    let typeBoxes = Self.megabyte(of: "[[type:")
    Self.check(AnkiFieldText.plainTextLine(typeBoxes), typeBoxes)
    let soundTags = Self.megabyte(of: "[sound:")
    Self.check(AnkiFieldText.plainTextLine(soundTags), soundTags)
    Self.check(AnkiFieldText.plainTextLine(Self.megabyte(of: "<é<br>x>")), "")
  }

  @Test func cardExportWithUnclosedStyles() {
    let styles = Self.megabyte(of: "<style>")
    Self.check(AnkiFieldText.cardExportSide(styles, isAnswer: true, isHTML: true), styles)
    let longStyles = Self.megabyte(of: "<ſtyle>[[TYPE:")
    Self.check(AnkiFieldText.cardExportSide(longStyles, isAnswer: true, isHTML: true), longStyles)
    Self.check(AnkiFieldText.cardExportSide(Self.megabyte(of: "<hr id=anſwer>\n"), isAnswer: true, isHTML: true), "")
  }

  @Test func laTeXWithoutClosingTags() {
    #expect(MediaReferences.latexFileNames(in: Self.megabyte(of: "[latex]"), svg: false).isEmpty)
    #expect(MediaReferences.latexFileNames(in: Self.megabyte(of: "[$]"), svg: false).isEmpty)
    #expect(MediaReferences.latexFileNames(in: Self.megabyte(of: "[$$]"), svg: false).isEmpty)
    #expect(MediaReferences.latexFileNames(in: Self.megabyte(of: "[latex]") + "[/latex]", svg: false).count == 1)
  }

  @Test func cssWithoutClosingParentheses() {
    #expect(MediaReferences.underscoredFileNames(inCSS: Self.megabyte(of: "'_")).isEmpty)
    #expect(MediaReferences.underscoredFileNames(inCSS: Self.megabyte(of: "__")).isEmpty)
    #expect(MediaReferences.underscoredFileNames(inCSS: Self.megabyte(of: "@import \"_")).isEmpty)
    #expect(MediaReferences.underscoredFileNames(inCSS: Self.megabyte(of: "_") + ")").count == 1)
    // Every `_` but the last is cut off by its line feed from the `)` after a long white space.
    let lines = Self.megabyte(of: "_a\n") + String(repeating: " ", count: 500_000) + ")"
    #expect(MediaReferences.underscoredFileNames(inCSS: lines) == ["_a"])
  }

  @Test func templateWithoutClosingBrackets() {
    #expect(MediaReferences.underscoredFileNames(inTemplate: Self.megabyte(of: "[sound:_")).isEmpty)
    #expect(MediaReferences.underscoredFileNames(inTemplate: Self.megabyte(of: "\"_")).isEmpty)
    #expect(MediaReferences.underscoredFileNames(inTemplate: Self.megabyte(of: " src=_")).count == 1)
  }
}
