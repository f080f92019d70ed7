import DeckCore
import Testing

@Suite("Media references in fields")
struct MediaReferencesTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var field: String
    var names: [String]
    var testDescription: String { field }
  }

  static let cases: [Case] = [
    Case(field: #"<img src="pixel.png">"#, names: ["pixel.png"]),
    Case(field: "<IMG SRC=pic.jpg alt=x>", names: ["pic.jpg"]),
    Case(field: "<img alt='a' src='my photo.png' />", names: ["my photo.png"]),
    Case(field: "Bonjour [sound:beep.wav] and [sound:b c.mp3]", names: ["beep.wav", "b c.mp3"]),
    Case(field: #"<img src="a&amp;b.png">"#, names: ["a&b.png"]),
    Case(field: #"<audio controls src="x.ogg"></audio><source src="y.mp3">"#, names: ["x.ogg", "y.mp3"]),
    Case(field: #"<object data="movie.swf"></object>"#, names: ["movie.swf"]),
    Case(field: #"<img src="https://example.com/x.png"><img src="sub/dir.png">"#, names: []),
    Case(field: #"<a href="x.png">link</a> <b>bold</b> plain text"#, names: []),
    Case(field: #"<img src="">"#, names: []),
    Case(field: "<img src=\"caf\u{E9}.png\">", names: ["caf\u{E9}.png"]),
    Case(field: "unterminated <img src=\"x.png\"", names: []),
    Case(field: "[sound:a.mp3][SOUND:b.mp3] [x] [sound:c.mp3", names: ["a.mp3", "b.mp3"]),
    Case(field: "[[sound:a.mp3]] [sound:] [soun", names: ["a.mp3"]),
    Case(field: "text ending in [", names: []),
    Case(field: "[sound:a.mp3]<img src=b.png>[sound:d.ogg]", names: ["a.mp3", "b.png", "d.ogg"]),
    // Attribute names match whole, in any case: not a longer or shorter name sharing a prefix.
    Case(field: #"<img srcset="a.png 2x" sr="c.png" data-src="d.png" src="b.png">"#, names: ["b.png"]),
    Case(field: "<object DaTa='m.swf'></object><img Src = e.png>", names: ["m.swf", "e.png"]),
    Case(field: #"<img alt="src=x.png" title=data>"#, names: []),
  ]

  @Test(arguments: cases)
  func references(_ testCase: Case) {
    #expect(Set(MediaReferences.fileNames(in: testCase.field)) == Set(testCase.names))
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
    ("&nbsp;", "\u{A0}"),
    ("&unknown; & alone", "&unknown; & alone"),
    ("no entities", "no entities"),
  ])
  func decode(_ input: String, _ expected: String) {
    #expect(HTMLEntities.decode(input) == expected)
  }
}
