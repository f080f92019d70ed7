import DeckCore
import DeckTestSupport
import Testing

extension MediaReferenceCase: CustomTestStringConvertible {}

@Suite("Media references in fields, as the real Anki backend finds them")
struct MediaReferencesTests {
  @Test func everyCaseIsThere() {
    #expect(MediaReferenceCase.all.count >= 90)
  }

  /// Each name, in the backend's order (media tags, then sound tags), decoded as it decodes them.
  @Test(arguments: MediaReferenceCase.all)
  func references(_ testCase: MediaReferenceCase) {
    #expect(MediaReferences.references(in: testCase.field) == testCase.references)
  }

  /// The files deckport packages: the backend's names that Anki's import takes for one file
  /// name (`Tests/anki/test_media_reference_paths_in_packages.py` judges them by the backend).
  @Test func fileNamesLeaveOutPathsAndDots() {
    let paths =
      #"<img src="https://x.org/a.png"><img src="sub/b.png"><img src=".">[sound:..]"#
      + #"<img src="./c.png"><img src="/d.png">"#
    #expect(MediaReferences.fileNames(in: paths).isEmpty)
    #expect(
      MediaReferences.fileNames(in: #"<img src="a\b.png"><img src="ok.png"><img src="e/"><img src="f//">"#)
        == [#"a\b.png"#, "ok.png", "e/", "f//"])
    #expect(MediaReferences.fileNames(in: "[sound:a.mp3]<img src=b.png>") == ["b.png", "a.mp3"])
  }

  /// What an app gets for a note: every field's files, each once, in order; no URL or path.
  @Test func referencedMediaNamesOfANote() {
    let note = Note(
      id: 1, guid: "x", noteTypeID: 1,
      fields: [
        #"<img src="my photo.png"> [sound:a&amp;b.mp3]"#, #"<img src="https://x.org/y.png">[sound:hi.mp3]"#,
        "[sound:a&amp;b.mp3]<img src=\"sub/z.png\">",
      ])
    #expect(note.referencedMediaNames == ["my photo.png", "a&b.mp3", "hi.mp3"])
    #expect(Note(id: 2, guid: "y", noteTypeID: 1, fields: ["plain", ""]).referencedMediaNames.isEmpty)
  }

  /// Shapes a backtracking engine takes exponential time over, a megabyte of them: the scan
  /// visits each position once. With a `src` at the very end, the match is the backend's
  /// (`"a>"` runs carry the loop past each `>`).
  @Test(.timeLimit(.minutes(5)))
  func hostileTagsTakeLinearTime() {
    let quotes = "<img " + String(repeating: #""a""#, count: 350_000)
    #expect(MediaReferences.references(in: quotes).isEmpty)
    #expect(MediaReferences.references(in: quotes + " src=x>") == ["x"])
    let closing = "<img " + String(repeating: #""a>""#, count: 250_000) + " src=y>"
    #expect(MediaReferences.references(in: closing) == ["y"])
    let mixed = String(repeating: #"<img "a'b"c'>"#, count: 80_000) + "<source src='z'>"
    #expect(MediaReferences.references(in: mixed) == ["z"])
    let opens = String(repeating: "<img src=", count: 110_000)
    #expect(MediaReferences.references(in: opens).isEmpty)
    let sounds = String(repeating: "[sound:", count: 150_000)
    #expect(MediaReferences.references(in: sounds).isEmpty)
  }
}

@Suite("Media file names as Anki normalises them")
struct MediaFileNameTests {
  @Test(arguments: [
    ("cafe\u{301}:blue.png", "caf\u{E9}blue.png"),
    ("a:b?.png", "ab.png"),
    ("con.jpg", "con_.jpg"),
    ("LPT1", "LPT1_"),
    ("test.", "test._"),
    ("trailing ", "trailing _"),
    ("a\u{A0}b.png", "a b.png"),
    ("../evil.png", "..evil.png"),
    ("sub/dir.png", "subdir.png"),
    ("ok name.png", "ok name.png"),
  ])
  func normalised(_ input: String, _ expected: String) {
    #expect(MediaFileName.normalized(input) == expected)
  }

  @Test func longNamesAreCutTo120Bytes() {
    let name = String(repeating: "é", count: 100) + ".jpeg"
    let result = MediaFileName.normalized(name)
    #expect(result.utf8.count <= 120)
    #expect(result.hasSuffix(".jpeg"))
    #expect(result.hasPrefix("éé"))
  }

  @Test func safety() {
    #expect(MediaFileName.isSafe("pixel.png"))
    #expect(!MediaFileName.isSafe("../x.png"))
    #expect(!MediaFileName.isSafe("cafe\u{301}.png"))
    #expect(!MediaFileName.isSafe(""))
  }
}

@Suite("HTML entities")
struct HTMLEntitiesTests {
  @Test(arguments: [
    ("a &amp; b", "a & b"),
    ("&lt;b&gt;", "<b>"),
    ("&#233;&#xE9;&#X1F389;", "éé🎉"),
    ("&frac14; &apos; &Omega;", "¼ ' Ω"),
    ("&#xD800; &#99999999999; &#;", "&#xD800; &#99999999999; &#;"),
    ("&nbsp;", "\u{A0}"),
    ("&unknown; & alone", "&unknown; & alone"),
    ("no entities", "no entities"),
  ])
  func decode(_ input: String, _ expected: String) {
    #expect(HTMLEntities.decode(input) == expected)
  }
}
