import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// The details of what the writer puts in a package: layout, identity, derived columns, media
/// selection and deck option conversion.
@Suite("Writing Anki packages: layout, identity and content")
struct WriterBehaviourTests {
  static let basicID: Int64 = 1_700_000_000_000

  /// A Basic note type, a note per field list, one card each, in deck 1.
  static func collection(_ notes: [[String]], guids: [String]? = nil, media: [MediaFile] = []) -> DeckCollection {
    DeckCollection(
      creationTime: 1_795_320_000,
      decks: [Deck(id: 1, name: "Default")],
      noteTypes: [
        NoteType(
          id: basicID, name: "Basic",
          fields: [NoteType.Field(name: "Front"), NoteType.Field(name: "Back")],
          templates: [NoteType.CardTemplate(name: "Card 1", questionFormat: "{{Front}}", answerFormat: "{{Back}}")],
          css: "@import \"_style.css\";")
      ],
      notes: notes.enumerated().map { index, fields in
        Note(id: Int64(100 + index), guid: guids?[index] ?? "", noteTypeID: basicID, fields: fields)
      },
      cards: notes.indices.map { Card(id: Int64(200 + $0), noteID: Int64(100 + $0), templateOrdinal: 0, deckID: 1) },
      media: media)
  }

  /// Writes `collection` and returns the package path (inside `scratch`) and the warnings.
  static func write(
    _ collection: DeckCollection, _ generation: AnkiPackageGeneration = .legacy2, _ kind: AnkiPackageKind = .apkg,
    in scratch: TemporaryDirectory
  ) throws -> (path: String, warnings: [Diagnostic]) {
    let path = scratch.path(for: "out-\(UUID().uuidString).\(kind.rawValue)")
    let warnings = try AnkiPackageWriter(options: .init(generation: generation, kind: kind))
      .write(collection, to: path, reportingAs: path)
    return (path, warnings)
  }

  // MARK: - Names

  @Test(
    "two note types of one name (ignoring case): the later is written as Anki names it when it renames it, and said",
    arguments: [AnkiPackageKind.apkg, .colpkg])
  func sameNamedNoteTypes(kind: AnkiPackageKind) throws {
    var collection = Self.collection([["a", "b"], ["c", "d"]])
    var copy = collection.noteTypes[0]
    copy.id = Self.basicID + 1
    copy.name = "BASIC"
    collection.noteTypes.append(copy)
    collection.notes[1].noteTypeID = copy.id
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let (path, warnings) = try Self.write(collection, .legacy2, kind, in: scratch)
    let back = try AnkiPackageReader().read(path: path).collection
    #expect(Set(back.noteTypes.map(\.name)) == ["Basic", "BASIC_"])
    #expect(
      back.notes.first { $0.id == 101 }.flatMap { note in back.noteTypes.first { $0.id == note.noteTypeID } }?.name
        == "BASIC_")
    let renamed = warnings.filter { $0.category == .noteTypeRenamed }
    #expect(renamed.count == 1)
    #expect(renamed.first?.location.description.hasSuffix("note type 'BASIC' (id \(Self.basicID + 1))") == true)
    #expect(renamed.first?.message.contains("this one is written as 'BASIC_'") == true)
  }

  @Test("in an .apkg, a note type of another's name that no note uses renames nothing: it is not written")
  func sameNamedUnusedNoteType() throws {
    var collection = Self.collection([["a", "b"]])
    var unused = collection.noteTypes[0]
    unused.id = Self.basicID - 1
    unused.name = "BASIC"
    collection.noteTypes.insert(unused, at: 0)
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let (path, warnings) = try Self.write(collection, .legacy2, .apkg, in: scratch)
    #expect(try AnkiPackageReader().read(path: path).collection.noteTypes.map(\.name) == ["Basic"])
    #expect(!warnings.contains { $0.category == .noteTypeRenamed })
    #expect(warnings.contains { $0.category == .noteTypeUnused })
  }

  @Test("the card data's warning, checked beside the write, keeps its turn among the others")
  func cardDataWarningInTurn() throws {
    var collection = Self.collection([["a", "b"], ["c", "d"]])
    collection.cards[0].scheduling.data = #"{"unknown":1}"#
    collection.cards.removeLast()  // the second note has no card
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let (_, warnings) = try Self.write(collection, .legacy2, .apkg, in: scratch)
    let categories = warnings.map(\.category)
    let cardData = try #require(categories.firstIndex(of: .cardDataChanged))
    let withoutCards = try #require(categories.firstIndex(of: .noteWithoutCards))
    #expect(cardData < withoutCards, "\(categories)")
  }

  // MARK: - Identity

  @Test("GUIDs are genanki's guid_for of note type id and fields")
  func genankiGUIDs() {
    // Python: genanki.guid_for(1700000000000, "Front", "Back")
    #expect(AnkiGUID.derived(from: ["1700000000000", "Front", "Back"]) == "u2ASK-4Me{")
    #expect(AnkiGUID.derived(from: ["hello"]) == "hZ%+.BW-%^")
    #expect(AnkiGUID.base91(0) == "")
    #expect(AnkiGUID.base91(90) == "~")
    #expect(AnkiGUID.base91(91) == "ba")
    // genanki.guid_for() (SHA-256 of no bytes) and a UTF-8 input longer than one 64-byte block.
    #expect(AnkiGUID.derived(from: []) == "ME_YHw2?15")
    #expect(AnkiGUID.derived(from: ["日本語", String(repeating: "é", count: 100)]) == "mqc:RuFeRA")
  }

  @Test("notes without a GUID get a derived one, the same every time, distinct for equal notes")
  func derivedGUIDs() throws {
    let scratch = try TemporaryDirectory()
    let source = Self.collection([["Front", "Back"], ["Front", "Back"], ["x", "y"]], guids: ["", "", "kept"])
    let first = try AnkiPackageReader().read(path: try Self.write(source, in: scratch).path).collection
    let second = try AnkiPackageReader().read(path: try Self.write(source, in: scratch).path).collection
    #expect(first.notes.map(\.guid) == ["u2ASK-4Me{", "GC6&w>8G8q", "kept"])
    #expect(first.notes == second.notes)
    #expect(first.cards == second.cards)
  }

  // MARK: - Layout

  @Test("package members, their compression and meta", arguments: AnkiPackageGeneration.allCases)
  func layout(generation: AnkiPackageGeneration) throws {
    let scratch = try TemporaryDirectory()
    let (path, _) = try Self.write(Self.collection([["a", "b"]]), generation, in: scratch)
    let members = try ZipDirectory.members(of: path)
    // The collection member comes last: the media are written while it is built. Readers,
    // Anki's among them, look members up by name.
    switch generation {
    case .legacy1:
      #expect(members.map(\.name) == ["media", "collection.anki2"])
      #expect(members[1].method == 8)
    case .legacy2:
      #expect(members.map(\.name) == ["meta", "collection.anki2", "media", "collection.anki21"])
      #expect(members.map(\.method) == [0, 0, 0, 8])
      #expect(try PackageSurgery.member("meta", of: path) == Data([0x08, 0x02]))
      #expect(try PackageSurgery.member("media", of: path) == Data("{}".utf8))
    case .latest:
      #expect(members.map(\.name) == ["meta", "collection.anki2", "media", "collection.anki21b"])
      #expect(members.map(\.method) == [0, 0, 0, 0])
      #expect(try PackageSurgery.member("meta", of: path) == Data([0x08, 0x03]))
      #expect(try PackageSurgery.member("collection.anki21b", of: path).prefix(4) == Data([0x28, 0xB5, 0x2F, 0xFD]))
      #expect(
        try PackageSurgery.member("media", of: path) == Data([0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x00, 0x01, 0x00, 0x00]))
    }
  }

  @Test("the placeholder collection.anki2 holds the 'please update' note")
  func placeholder() throws {
    let scratch = try TemporaryDirectory()
    let (path, _) = try Self.write(Self.collection([["a", "b"]]), .legacy2, in: scratch)
    let stripped = scratch.path(for: "old-client-view.apkg")
    try PackageSurgery.copy(path, to: stripped, applying: .init(remove: ["meta", "collection.anki21"]))
    let contents = try AnkiPackageReader().read(path: stripped)
    #expect(contents.generation == .legacy1)
    #expect(contents.collection.notes.map(\.fields) == [[PlaceholderDatabase.message, ""]])
    #expect(contents.warnings.map(\.category) == ["placeholder-collection"])
    let database = scratch.path(for: "placeholder.sqlite")
    try PackageSurgery.member("collection.anki2", of: path).write(to: URL(fileURLWithPath: database))
    let rows = try SQLiteDatabase(path: database, readOnly: true, location: SourceLocation(file: database))
      .prepare("PRAGMA page_size")
    #expect(try rows.step())
    #expect(rows.int64(0) == 512)
  }

  @Test("a media map lists every file; legacy files raw, latest files zstd with SHA-1 and size")
  func mediaMembers() throws {
    let scratch = try TemporaryDirectory()
    let bytes = Data("body { color: red }".utf8)
    let source = Self.collection(
      [["<img src=\"a.png\">", "[sound:b c.mp3]"]],
      media: [
        MediaFile(name: "a.png", blob: MediaBlob(data: Data([1, 2, 3]))),
        MediaFile(name: "b c.mp3", blob: MediaBlob(data: Data())),
        MediaFile(name: "_style.css", blob: MediaBlob(data: bytes)),
      ])
    let (legacy, _) = try Self.write(source, .legacy2, in: scratch)
    let map =
      try JSONSerialization.jsonObject(with: try PackageSurgery.member("media", of: legacy)) as? [String: String]
    #expect(map == ["0": "a.png", "1": "b c.mp3", "2": "_style.css"])
    #expect(try PackageSurgery.member("2", of: legacy) == bytes)

    let (latest, _) = try Self.write(source, .latest, in: scratch)
    let member = try PackageSurgery.member("2", of: latest)
    #expect(try Zstd.decompress(member, limit: 1 << 20, location: SourceLocation(file: latest)) == bytes)
    let manifest = try Zstd.decompress(
      try PackageSurgery.member("media", of: latest), limit: 1 << 20, location: SourceLocation(file: latest))
    let entries = try MediaManifest.protobufEntries(manifest, location: SourceLocation(file: latest))
    #expect(entries.map(\.name) == ["a.png", "b c.mp3", "_style.css"])
    #expect(entries.map(\.size) == [3, 0, Int64(bytes.count)])
    #expect(entries[2].sha1 == SHA1.digest(bytes))
    let back = try AnkiPackageReader().read(path: latest).collection.media
    #expect(try back.map { try $0.blob.data() } == [Data([1, 2, 3]), Data(), bytes])
  }

  // MARK: - Media selection

  @Test(
    "an .apkg leaves out unreferenced media with a warning, but keeps the '_' and 'latex-' files Anki's import keeps; a .colpkg keeps every file"
  )
  func unreferencedMedia() throws {
    let scratch = try TemporaryDirectory()
    let latexField = "[$]x^2[/$]"
    let latexName = MediaReferences.latexFileNames(in: latexField, svg: false)[0]
    let source = Self.collection(
      [["<img src='pic.png'>", latexField]],
      media: [
        MediaFile(name: "pic.png", blob: MediaBlob(data: Data([1]))),
        MediaFile(name: "unused.png", blob: MediaBlob(data: Data([2]))),
        MediaFile(name: "_style.css", blob: MediaBlob(data: Data([3]))),
        MediaFile(name: "_other.js", blob: MediaBlob(data: Data([4]))),
        MediaFile(name: latexName, blob: MediaBlob(data: Data([5]))),
        MediaFile(name: "latex-unreferenced.png", blob: MediaBlob(data: Data([6]))),
        MediaFile(name: "x_other.js", blob: MediaBlob(data: Data([7]))),
      ])
    let (apkg, apkgWarnings) = try Self.write(source, .legacy2, .apkg, in: scratch)
    #expect(
      try AnkiPackageReader().read(path: apkg).collection.media.map(\.name) == [
        "pic.png", "_style.css", "_other.js", latexName, "latex-unreferenced.png",
      ])
    #expect(apkgWarnings.map(\.category) == ["media-unused", "media-unused"])
    #expect(apkgWarnings.map(\.location.item) == ["media file 'unused.png'", "media file 'x_other.js'"])
    #expect(apkgWarnings.allSatisfy { $0.location.file == apkg })

    let (colpkg, colpkgWarnings) = try Self.write(source, .legacy2, .colpkg, in: scratch)
    #expect(try AnkiPackageReader().read(path: colpkg).collection.media.count == 7)
    #expect(colpkgWarnings.isEmpty)
  }

  @Test("a media name Anki would change is written normalised, with a warning")
  func renamedMedia() throws {
    let scratch = try TemporaryDirectory()
    let source = Self.collection(
      [["a", "b"]], media: [MediaFile(name: "cafe\u{301}:blue.png", blob: MediaBlob(data: Data([1])))])
    let (path, warnings) = try Self.write(source, .latest, .colpkg, in: scratch)
    #expect(try AnkiPackageReader().read(path: path).collection.media.map(\.name) == ["caf\u{E9}blue.png"])
    #expect(warnings.map(\.category) == ["media-renamed"])
  }

  @Test("anki references: underscored files in CSS and templates, LaTeX image names")
  func ankiReferences() {
    #expect(
      MediaReferences.underscoredFileNames(inCSS: "@import \"_vocab.css\";\n.card{background:url(_bg.png)}") == [
        "_vocab.css", "_bg.png",
      ])
    #expect(MediaReferences.underscoredFileNames(inCSS: "@import \"vocab.css\";") == [])
    #expect(
      MediaReferences.underscoredFileNames(inTemplate: "<script src=\"_x.js\"></script>[sound:_y.mp3]<img src=_z.png>")
        == ["_x.js", "_y.mp3", "_z.png"])
    // Anki: fname_for_latex(strip_html("$x^2$")) = "latex-" + sha1("$x^2$") + ".png"
    #expect(
      MediaReferences.latexFileNames(in: "a [$]x^2[/$] b", svg: false)
        == ["latex-\(SHA1.hex(SHA1.digest(Data("$x^2$".utf8)))).png"])
    #expect(
      MediaReferences.latexFileNames(in: "[latex]a<br>b[/latex]", svg: true)
        == ["latex-\(SHA1.hex(SHA1.digest(Data("a\nb".utf8)))).svg"])
  }

  // MARK: - Derived columns

  @Test("sfld and csum as Anki computes them")
  func sortFieldAndChecksum() throws {
    #expect(
      AnkiFieldText.strippingHTMLPreservingMediaFileNames("Hello <b>world</b> &amp; friends") == "Hello world & friends"
    )
    #expect(AnkiFieldText.checksum("Hello world & friends") == 3_916_110_777)
    #expect(AnkiFieldText.strippingHTMLPreservingMediaFileNames("<img src=\"a.png\">x") == " a.png x")
    #expect(AnkiFieldText.strippingHTMLPreservingMediaFileNames("<IMG SRC=pic.jpg alt=x>") == " pic.jpg ")
    #expect(AnkiFieldText.strippingHTMLPreservingMediaFileNames("a<br>b<!-- c --><style>d</style>") == "ab")
    #expect(AnkiFieldText.strippingHTMLPreservingMediaFileNames("&nbsp;x&lt;y") == " x<y")
    #expect(AnkiFieldText.strippingHTMLPreservingMediaFileNames("  spaced  [sound:a.mp3]") == "  spaced  [sound:a.mp3]")

    let scratch = try TemporaryDirectory()
    var source = Self.collection([["Hello <b>world</b> &amp; friends", "007"], ["chat", "cat"]])
    source.noteTypes[0].sortFieldIndex = 1
    let (path, _) = try Self.write(source, in: scratch)
    let databasePath = scratch.path(for: "collection.sqlite")
    try PackageSurgery.member("collection.anki21", of: path).write(to: URL(fileURLWithPath: databasePath))
    let rows = try SQLiteDatabase(path: databasePath, readOnly: true, location: SourceLocation(file: databasePath))
      .prepare("SELECT sfld, csum, tags FROM notes ORDER BY id")
    #expect(try rows.step())
    #expect(rows.value(0) == .integer(7))
    #expect(rows.int64(1) == 3_916_110_777)
    #expect(try rows.step())
    #expect(rows.value(0) == .text("cat"))
    #expect(rows.int64(1) == 2_127_422_280)
  }

  @Test("a tag is kept as it is exactly when it is not empty and holds no space, U+3000 or control character")
  func cleanTags() {
    func expected(_ tag: String) -> Bool {
      !tag.isEmpty
        && !tag.unicodeScalars.contains { $0 == " " || $0 == "\u{3000}" || $0.value < 0x20 || $0.value == 0x7F }
    }
    // U+3001 and U+2000 share all but one byte with U+3000 (E3 80 81, E2 80 80).
    let pieces = [
      "a", "::", " ", "\u{3000}", "\u{3001}", "\u{2000}", "\t", "\u{7F}", "\u{80}", "é", "日本", "\u{0}", "~",
    ]
    var tags = [""] + pieces
    for first in pieces { for second in pieces { tags.append(first + second) } }
    tags.append(String(repeating: "long", count: 100) + "\u{3000}")
    tags.append(NSString(string: "bridged").appending("\u{3001}tag"))
    for tag in tags {
      #expect(CollectionValidation.isCleanTag(tag) == expected(tag), "\(Array(tag.unicodeScalars))")
    }
  }

  @Test("tags are padded with spaces; tags holding a space are reported and joined")
  func tags() throws {
    let scratch = try TemporaryDirectory()
    var source = Self.collection([["a", "b"], ["c", "d"]])
    source.notes[0].tags = ["a::b", "日本語"]
    source.notes[1].tags = ["two words", ""]
    let (path, warnings) = try Self.write(source, .legacy2, .colpkg, in: scratch)
    #expect(try AnkiPackageReader().read(path: path).collection.notes.map(\.tags) == [["a::b", "日本語"], ["twowords"]])
    #expect(warnings.map(\.category) == ["tag-changed", "tag-changed"])
    #expect(warnings.map(\.location.item) == ["note 101", "note 101"])
  }

  @Test("reported changes: field separator in a field, deck names, orphan cards, notes without cards")
  func reportedChanges() throws {
    let scratch = try TemporaryDirectory()
    var source = Self.collection([["a\u{1F}b", "c"], ["d", "e"]])
    source.decks.append(Deck(id: 2, name: "Lang:: French "))
    source.cards[0].deckID = 2
    source.cards.append(Card(id: 299, noteID: 555, templateOrdinal: 0, deckID: 1))
    source.cards.remove(at: 1)
    let (path, warnings) = try Self.write(source, .legacy2, .colpkg, in: scratch)
    #expect(
      warnings.map(\.category) == ["orphan-card", "field-changed", "deck-renamed", "note-without-cards", "deck-added"])
    #expect(
      warnings.map { $0.location.item ?? "" }
        == ["card 299", "note 100", "deck 'Lang:: French ' (id 2)", "note 101", "deck 'Lang' (id 3)"])
    #expect(warnings[1].message.hasPrefix("field 'Front' holds the control character U+001F"))
    let back = try AnkiPackageReader().read(path: path).collection
    #expect(back.notes.map(\.fields) == [["ab", "c"], ["d", "e"]])
    #expect(back.decks.map(\.name) == ["Default", "Lang::French", "Lang"])
    #expect(back.cards.map(\.id) == [200])
  }

  /// Anki removes U+0000 from every field it saves; a real genanki package's fields end in it
  /// (`fixtures/real/anki-packager-genanki-legacy1.apkg`, judged in the backend's tests).
  @Test("U+0000 in a field is removed, with a warning naming the note and field")
  func nulRemoved() throws {
    let scratch = try TemporaryDirectory()
    let source = Self.collection([["a\u{0}b\u{0}", "c"], ["d", "e\u{0}"]])
    let (path, warnings) = try Self.write(source, .legacy2, .colpkg, in: scratch)
    #expect(warnings.map(\.category) == ["field-changed", "field-changed"])
    #expect(warnings.map { $0.location.item ?? "" } == ["note 100", "note 101"])
    #expect(warnings[1].message.hasPrefix("field 'Back' holds the character U+0000 (NUL), which Anki removes"))
    let back = try AnkiPackageReader().read(path: path)
    #expect(back.collection.notes.map(\.fields) == [["ab", "c"], ["d", "e"]])
    #expect(back.warnings.isEmpty)
  }

  /// As Anki's import of a deck package stores them (judged in
  /// `Tests/anki/test_values_anki_import_changes.py`); a collection package keeps them.
  @Test("a deck package holds tags as Anki's import stores them: no empty levels, one spelling of each, NFC")
  func tagsAsImported() throws {
    let scratch = try TemporaryDirectory()
    var source = Self.collection([["a", "b"], ["c", "d"]])
    source.notes[0].tags = ["a:: ::b", "Straße", "Verb", "verb"]
    source.notes[1].tags = ["STRASSE", "e\u{301}"]
    let (path, warnings) = try Self.write(source, .legacy2, .apkg, in: scratch)
    #expect(
      try AnkiPackageReader().read(path: path).collection.notes.map(\.tags) == [
        ["a::blank::b", "Straße", "Verb"], ["Straße", "\u{E9}"],
      ])
    #expect(
      warnings.map(\.message) == [
        "tag 'a:: ::b' is written as 'a::blank::b', as Anki's import stores it (Anki treats spaces and control characters as separators; Anki names an empty level 'blank')",
        "tag 'verb' is the tag 'Verb' for Anki, which the note has already (Anki compares tags ignoring case); it is left out",
        "tag 'STRASSE' is written as 'Straße', as Anki's import stores it (Anki spells it as the tag 'Straße' it meets first (note 100), as it compares tags ignoring case)",
        "tag 'e\\u{301}' is written as '\u{E9}', as Anki's import stores it (Anki brings tags into Unicode NFC)",
      ])
    #expect(warnings.map(\.location.item) == ["note 100", "note 100", "note 101", "note 101"])
  }

  /// Anki's Check Database deletes one of two such cards, with its scheduling (judged in
  /// `Tests/anki/test_values_anki_import_changes.py`).
  @Test("two cards of one note with one ordinal, given or after clamping, are refused naming both")
  func oneCardPerTemplate() throws {
    let scratch = try TemporaryDirectory()
    var source = Self.collection([["a", "b"]])
    source.cards.append(Card(id: 201, noteID: 100, templateOrdinal: 0, deckID: 1))
    let given = #expect(throws: DeckError.self) { try Self.write(source, in: scratch) }
    #expect(given?.location.item == "note 100, cards 200 and 201")
    #expect(given?.message.hasPrefix("cards 200 and 201 of note 100 both have template ordinal 0; Anki keeps") == true)
    source.cards[0].templateOrdinal = 65535
    source.cards[1].templateOrdinal = 65536
    let clamped = #expect(throws: DeckError.self) { try Self.write(source, .latest, .colpkg, in: scratch) }
    #expect(
      clamped?.message.hasPrefix(
        "cards 200 and 201 of note 100 both have template ordinal 65535 (card 201's ord 65536 is outside the range Anki reads and is written as 65535);"
      ) == true)
  }

  /// Anki's import of a deck package removes these; its restore of a collection package keeps
  /// them (judged in `Tests/anki/test_values_anki_import_changes.py`).
  @Test("control characters Anki's package import removes: gone from an .apkg with one warning, kept in a .colpkg")
  func importRemovedControlCharacters() throws {
    let scratch = try TemporaryDirectory()
    let source = Self.collection([["line1\r\nline2", "a\u{7}b\u{1B}c\u{7F}d"], ["tab\there\nok\u{85}", "e"]])
    let (apkg, warnings) = try Self.write(source, .latest, .apkg, in: scratch)
    #expect(warnings.map(\.category) == ["field-changed"])
    #expect(warnings.first?.location.item == "note 100")
    #expect(
      warnings.first?.message
        == "1 note (note 100) holds control characters that Anki's import of a deck package removes from fields (U+0007 ×1, U+000D carriage return ×1, U+001B escape ×1, U+007F delete ×1); it is written without them (a .colpkg keeps them)"
    )
    #expect(
      try AnkiPackageReader().read(path: apkg).collection.notes.map(\.fields)
        == [["line1\nline2", "abcd"], ["tab\there\nok\u{85}", "e"]])
    let colpkgScratch = try TemporaryDirectory()
    let (colpkg, colpkgWarnings) = try Self.write(source, .legacy2, .colpkg, in: colpkgScratch)
    #expect(colpkgWarnings.isEmpty)
    #expect(try AnkiPackageReader().read(path: colpkg).collection.notes.map(\.fields) == source.notes.map(\.fields))
  }

  @Test("semantic damage is repaired as Anki's Check Database repairs it: field counts, missing decks")
  func checkDatabaseRepairs() throws {
    let scratch = try TemporaryDirectory()
    var source = Self.collection([["only"], ["a", "b", "c", ""], ["d", "e"]])
    source.cards[2].deckID = 4242
    let (path, warnings) = try Self.write(source, .latest, .apkg, in: scratch)
    #expect(warnings.map(\.category) == ["field-count", "field-count", "unknown-deck"])
    #expect(
      warnings.map(\.message) == [
        "note has 1 field value, but its note type 'Basic' (id 1700000000000) has 2 fields; the missing 1 is written empty, as Anki's Check Database fills them",
        "note has 4 field values, but its note type 'Basic' (id 1700000000000) has 2 fields; values 2 to 4 are joined with \"; \" into the last field, 'Back', as Anki's Check Database joins them",
        "card is in deck 4242, which the collection does not define; it is written in a deck 'recovered4242' with that id, added as Anki's Check Database adds one",
      ])
    let back = try AnkiPackageReader().read(path: path).collection
    #expect(back.notes.map(\.fields) == [["only", ""], ["a", "b; c; "], ["d", "e"]])
    #expect(
      back.cards.first { $0.id == 202 }.flatMap { card in back.decks.first { $0.id == card.deckID } }?.name
        == "recovered4242")
  }

  @Test("legacy JSON deck options missing keys Anki requires get Anki's defaults, reported")
  func incompleteLegacyOptions() throws {
    let options = DeckOptions(id: 3, name: "Mine", settings: .anki11JSON(#"{"id":3,"name":"Mine","new":{"perDay":7}}"#))
    let (json, warnings) = try DeckOptionsConversion.entry(for: options, location: SourceLocation(file: "x"))
    #expect(warnings.map(\.category) == ["deck-options-incomplete"])
    let object = try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any]
    for key in DeckOptionsConversion.requiredKeys { #expect(object?[key] != nil, "missing \(key)") }
    #expect((object?["new"] as? [String: Any])?["perDay"] as? Int == 7)
    #expect((object?["new"] as? [String: Any])?["initialFactor"] as? Int == 2500)
    #expect(json.text.contains(#""autoplay":true"#))
    #expect(json.text.contains(#""ease4":1.3"#))

    let broken = DeckOptions(id: 4, name: "Broken", settings: .anki11JSON("not json"))
    let error = #expect(throws: DeckError.self) {
      try DeckOptionsConversion.entry(for: broken, location: SourceLocation(file: "x"))
    }
    #expect(error?.kind == .corrupt)
    #expect(error?.location.item == "option group 'Broken' (id 4)")
  }

  // MARK: - Deck options

  /// Anki exported the same "Default" preset as legacy JSON (legacy2_sched.apkg) and as a
  /// protobuf blob (latest_sched.apkg); the conversion must give Anki's JSON.
  @Test("protobuf deck options convert to the JSON Anki writes for the same preset")
  func deckOptionsConversion() throws {
    let legacy = try AnkiPackageReader().read(path: Fixtures.path("anki/legacy2_sched.apkg")).collection.deckOptions
    let latest = try AnkiPackageReader().read(path: Fixtures.path("anki/latest_sched.apkg")).collection.deckOptions
    #expect(legacy.count == 1 && latest.count == 1)
    guard case .anki11JSON(let ankiJSON) = legacy.first?.settings, let options = latest.first,
      case .anki18Protobuf = options.settings
    else {
      Issue.record("the fixtures should hold JSON and protobuf deck options")
      return
    }
    let (converted, warnings) = try DeckOptionsConversion.entry(for: options, location: SourceLocation(file: "x"))
    #expect(warnings.isEmpty)
    #expect(try Self.canonical(converted.text) == Self.canonical(ankiJSON))
    #expect(try Self.canonical(DeckOptionsConversion.defaultEntry().text) == Self.canonical(ankiJSON))
  }

  @Test("unmappable deck option fields are reported with the group's name")
  func unmappableDeckOptions() throws {
    var blob = ProtobufWriter()
    blob.writeVarint(field: 9, 30)
    blob.writeVarint(field: 7, 1)  // a field number Anki's schema does not define
    blob.writeVarint(field: 43, 9)  // an answer action Anki does not know
    let options = DeckOptions(id: 5, name: "Fast", settings: .anki18Protobuf(blob.data))
    let (json, warnings) = try DeckOptionsConversion.entry(for: options, location: SourceLocation(file: "x"))
    #expect(warnings.map(\.category) == ["deck-options-unmapped", "deck-options-changed"])
    #expect(warnings.allSatisfy { $0.location.item == "option group 'Fast' (id 5)" })
    let object = try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any]
    #expect((object?["new"] as? [String: Any])?["perDay"] as? Int == 30)
    #expect(object?["answerAction"] as? Int == 0)
  }

  @Test("a collection without option group 1 gets Anki's default one")
  func defaultOptionsGroup() throws {
    let scratch = try TemporaryDirectory()
    var source = Self.collection([["a", "b"]])
    source.decks.append(Deck(id: 2, name: "Other", kind: .normal(optionsID: 9)))
    source.cards.append(Card(id: 201, noteID: 100, templateOrdinal: 1, deckID: 2))
    let (path, warnings) = try Self.write(source, .latest, .apkg, in: scratch)
    let back = try AnkiPackageReader().read(path: path).collection
    #expect(back.deckOptions.map(\.id) == [1])
    #expect(back.decks.map(\.kind) == [.normal(optionsID: 1), .normal(optionsID: 1)])
    #expect(warnings.map(\.category) == ["deck-options-missing"])
  }

  @Test("template requirements as Anki computes them")
  func requirements() {
    let fields: [Substring: Int] = ["Front": 0, "Back": 1, "Add Reverse": 2]
    #expect(TemplateRequirements.requirement(questionFormat: "{{Front}}", fields: fields) == ("any", [0]))
    #expect(
      TemplateRequirements.requirement(questionFormat: "{{#Add Reverse}}{{Back}}{{/Add Reverse}}", fields: fields)
        == ("all", [1, 2]))
    #expect(
      TemplateRequirements.requirement(questionFormat: "{{Front}}\n\n{{type:Back}}", fields: fields) == ("any", [0, 1]))
    #expect(TemplateRequirements.requirement(questionFormat: "{{#Front}}", fields: fields) == ("none", []))
    #expect(TemplateRequirements.requirement(questionFormat: "{{cloze:Front}}", fields: fields) == ("any", [0]))
  }

  /// JSON text parsed and written again with sorted keys, so two encodings compare by content.
  static func canonical(_ text: String) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
  }
}

/// The members of a zip file and their compression methods, read from its central directory.
enum ZipDirectory {
  struct Member {
    var name: String
    var method: UInt16
  }

  static func members(of path: String) throws -> [Member] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    var members: [Member] = []
    var index = 0
    while index + 46 <= bytes.count {
      if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x01, bytes[index + 3] == 0x02 {
        let nameLength = u16(index + 28)
        let extra = u16(index + 30)
        let comment = u16(index + 32)
        let name = String(decoding: bytes[(index + 46)..<(index + 46 + nameLength)], as: UTF8.self)
        members.append(Member(name: name, method: UInt16(u16(index + 10))))
        index += 46 + nameLength + extra + comment
      } else {
        index += 1
      }
    }
    return members
  }
}
