import Testing

@testable import DeckConversion

/// How `diff` tells a field whose characters are only spelled otherwise from one that changed.
@Suite("Field spelling: one way to spell each character of a field's text")
struct FieldSpellingTests {
  @Test(
    "spelled otherwise, the same field",
    arguments: [
      ("l&#x27;impression", "l'impression"),
      ("Tom & Jerry", "Tom &amp; Jerry"),
      ("two&nbsp;words", "two\u{A0}words"),
      ("a > b", "a &gt; b"),
      ("<b class=\"x\">caf&eacute;</b>", "<b class=\"x\">café</b>"),
      ("&#233;t&#xE9;", "été"),
      ("a < b", "a &lt; b"),
      // A combining mark right after a tag is text, spelled the one way like any other.
      ("x<u>&#x20D7;&amp;</u>", "x<u>\u{20D7}&</u>"),
    ])
  func same(_ old: String, _ new: String) {
    #expect(FieldSpelling.canonical(old) == FieldSpelling.canonical(new))
  }

  @Test(
    "a tag is not its text, and markup is not its escaped text",
    arguments: [
      ("&lt;b&gt;bold&lt;/b&gt;", "<b>bold</b>"),
      ("&amp;lt;", "&lt;"),
      ("<i>word</i>", "word"),
      ("<img src=\"a.png\">", "<img src=\"b.png\">"),
      ("a&nbsp;b", "a b"),
    ])
  func different(_ old: String, _ new: String) {
    #expect(FieldSpelling.canonical(old) != FieldSpelling.canonical(new))
  }
}
