import DeckAnki
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckCSV

@Suite("CSV reader: rows to the model, as Anki's importer reads them")
struct CSVReaderTests {
  static func read(_ text: String, name: String = "in.csv", _ options: CSVOptions = CSVOptions()) throws
    -> (notes: [NoteView], collection: DeckCollection, warnings: [String])
  {
    let (collection, warnings) = try CSVReader(options: options).read(data: Data(text.utf8), name: name)
    return (NoteView.all(collection), collection, warnings.map(\.description))
  }

  // MARK: - Anki's own exports and spreadsheets, judged by the real importer

  @Test(
    "every CSV fixture reads as the real Anki importer read it (truth file), but for notes of types the file only names, which Anki skips and deckport keeps",
    arguments: CSVTruth.fixtures)
  func fixtureMatchesAnki(_ fixture: String) throws {
    let truth = try CSVTruth.load(fixture)
    let (collection, _) = try CSVReader().read(path: Fixtures.path(fixture))
    let all = NoteView.all(collection)
    let stock = all.filter { StockNoteType(named: $0.noteType) != nil }
    #expect(all.count - stock.count == truth.log.missingNotetype)
    #expect(stock.count == truth.notes.count)
    for (ours, anki) in zip(stock, truth.notes) {
      #expect(ours.noteType == anki.noteType)
      #expect(ours.fields == anki.fields)
      #expect(ours.tags == anki.tags.sorted())
      #expect(ours.cards == anki.cards, "\(ours)")
      if let guid = anki.guid { #expect(ours.guid == guid) }
      // Anki renames a parent deck a row names after a child created it ("Parent+"); deckport
      // keeps the name the row gives.
      guard case .one(let deck) = anki.deck else {
        Issue.record("Anki put the cards of \(anki.fields) in several decks")
        continue
      }
      var expectedDeck = deck
      while expectedDeck.hasSuffix("+"), !collection.decks.contains(where: { $0.name == expectedDeck }) {
        expectedDeck.removeLast()
      }
      #expect(ours.decks == [expectedDeck])
    }
  }

  @Test(
    "a file that starts with Anki's # lines reads the same with a header row asked for (convert … sheet.csv --header): its first row is a note, as Anki reads it",
    arguments: CSVTruth.fixtures)
  func ankiLayoutHasNoHeaderRow(_ fixture: String) throws {
    let text = try String(contentsOfFile: Fixtures.path(fixture), encoding: .utf8)
    let firstLine = String(text.drop { $0 == "\u{FEFF}" }.prefix { $0 != "\n" && $0 != "\r\n" })
    guard CSVHeader.isKnownDirective(firstLine) else { return }
    let plain = try CSVReader().read(path: Fixtures.path(fixture))
    let headed = try CSVReader(options: CSVOptions(hasHeaderRow: true)).read(path: Fixtures.path(fixture))
    #expect(NoteView.all(headed.collection) == NoteView.all(plain.collection))
    #expect(headed.warnings.map(\.description) == plain.warnings.map(\.description))
  }

  @Test("a row of column names under Anki's # lines, read with a header row asked for, is a note, and said")
  func columnNamesUnderAnkiLines() throws {
    let (notes, _, warnings) = try Self.read(
      "#separator:comma\nFront,Back\nhello,world\n", CSVOptions(hasHeaderRow: true))
    #expect(notes.map(\.fields) == [["Front", "Back"], ["hello", "world"]])
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.contains("in.csv:2: warning: [csv-header-row] this row names columns ('Front', 'Back')") == true)
    // Without # lines, the row names the columns.
    let sheet = try Self.read("Front,Back\nhello,world\n", CSVOptions(hasHeaderRow: true))
    #expect(sheet.notes.map(\.fields) == [["hello", "world"]])
    #expect(sheet.warnings.isEmpty)
  }

  @Test(
    "tags that are one under case folding are one tag, spelled as the first row that has it spells it, each change said at its line (tag_case.tsv)"
  )
  func tagsFoldedAsAnkisImport() throws {
    let path = Fixtures.path("csv/sheets/tag_case.tsv")
    let (collection, warnings) = try CSVReader().read(path: path)
    #expect(
      collection.notes.map(\.tags) == [
        ["the"], ["the", "x::Y"], ["x::Y::z", "Verb"], ["Straße", "a::blank::b"], ["Straße", "a::blank::b", "x"],
      ])
    let tagWarnings = warnings.map(\.description).filter { $0.contains("[tag-changed]") }
    #expect(
      tagWarnings == [
        "\(path):4: warning: [tag-changed] tag 'The' is the tag 'the' for Anki, which the note has already (Anki compares tags ignoring case); it is left out",
        "\(path):5: warning: [tag-changed] tag 'THE' is read as 'the', as Anki's import stores it (Anki spells it as the tag 'the' it meets first (line 4), as it compares tags ignoring case)",
        "\(path):6: warning: [tag-changed] tag 'X::y::z' is read as 'x::Y::z', as Anki's import stores it (Anki spells it as the tag 'x::Y' it meets first (line 5), as it compares tags ignoring case)",
        "\(path):6: warning: [tag-changed] tag 'verb' is the tag 'Verb' for Anki, which the note has already (Anki compares tags ignoring case); it is left out",
        "\(path):7: warning: [tag-changed] tag 'a::::b' is read as 'a::blank::b', as Anki's import stores it (Anki names an empty level 'blank')",
        "\(path):8: warning: [tag-changed] tag 'STRASSE' is read as 'Straße', as Anki's import stores it (Anki spells it as the tag 'Straße' it meets first (line 7), as it compares tags ignoring case)",
        "\(path):8: warning: [tag-changed] tag 'A::BLANK::B' is read as 'a::blank::b', as Anki's import stores it (Anki spells it as the tag 'a::blank::b' it meets first (line 7), as it compares tags ignoring case)",
      ])
    // Tags Anki stores as they are give no warning.
    let plain = try Self.read("#separator:tab\n#tags column:3\nq\ta\tx::y Z\nr\tb\tx::y::w z2\n")
    #expect(plain.notes.map(\.tags) == [["Z", "x::y"], ["x::y::w", "z2"]])
    #expect(!plain.warnings.contains { $0.contains("tag-changed") })
  }

  @Test("notes_all: decks as the rows name them, a GUID with # kept, Vocab made from the file with a warning")
  func notesAllSample() throws {
    let (collection, warnings) = try CSVReader().read(path: Fixtures.path("csv/anki/notes_all.txt"))
    let notes = NoteView.all(collection)
    #expect(notes.map(\.decks) == [["Parent::Child"], ["Parent"], ["Parent::Child"], ["Parent"], ["Default"]])
    #expect(notes[1].guid == "q(AA[xz#x8")
    #expect(
      notes[4]
        == NoteView(
          guid: "q{@p%d%NhH", noteType: "Vocab (3 fields)", fields: ["chat", "cat", "Le chat dort."], tags: ["vocab"],
          decks: ["Default"], cards: [0]))
    let vocab = try #require(collection.noteTypes.first { $0.name == "Vocab (3 fields)" })
    #expect(vocab.fieldNames == ["Field 1", "Field 2", "Field 3"])
    #expect(vocab.templates.map(\.questionFormat) == ["{{Field 1}}"])
    #expect(
      warnings.map(\.description) == [
        "\(Fixtures.path("csv/anki/notes_all.txt")):12: warning: [csv-note-type] note type 'Vocab (3 fields)' is not one of Anki's stock note types and a CSV file cannot define one: made a note type with one card showing the first field and the fields Field 1, Field 2, Field 3 (line 12)"
      ])
  }

  @Test(
    "notes_html_tags: the Vocab row's third column, which Basic has no field for, is left out as Anki leaves it, with a warning"
  )
  func notesHTMLTagsSample() throws {
    let path = Fixtures.path("csv/anki/notes_html_tags.txt")
    let (collection, warnings) = try CSVReader().read(path: path)
    #expect(NoteView.all(collection).last?.fields == ["chat", "cat"])
    #expect(
      warnings.map(\.description) == [
        "\(path):1: warning: [csv-no-guid] the file has the header of Anki's \"Notes in Plain Text\" export without \"Include unique identifier\" (no #guid column): its notes get GUIDs derived from their content, not the ones Anki gave them, so a package made of it and imported into the collection it came from adds every note again; export with \"Include unique identifier\", or import this file itself into Anki, which matches notes by their first field",
        "\(path):9: warning: [csv-dropped] nothing names the note type, so rows are read as Basic notes (Front, Back) as Anki reads them, and 1 non-empty cell in column 3, which no field takes, is left out as Anki leaves it out (line 9); name the columns with CSVOptions.columns or the note type with CSVOptions.noteType to keep them",
      ])
  }

  @Test("a row of 50,000 columns: read whole, and the warning names the dropped columns as ranges")
  func veryWideRows() throws {
    let row = (1...50_000).map { "c\($0)" }.joined(separator: ",")
    let text = row + "\n" + row + ",extra\n"
    let (collection, warnings) = try CSVReader().read(data: Data(text.utf8), name: "wide.csv")
    #expect(NoteView.all(collection).map(\.fields) == [["c1", "c2"], ["c1", "c2"]])
    #expect(
      warnings.map(\.description) == [
        "wide.csv:1: warning: [csv-dropped] nothing names the note type, so rows are read as Basic notes (Front, Back) as Anki reads them, and 99995 non-empty cells in columns 4–50001, which no field takes, are left out as Anki leaves them out (lines 1, 2); name the columns with CSVOptions.columns or the note type with CSVOptions.noteType to keep them"
      ])
  }

  @Test("number lists: runs become ranges, at most ten items and then how many more")
  func rangeLists() {
    #expect(CSVNoteTypeCatalog.rangeList([3]) == "3")
    #expect(CSVNoteTypeCatalog.rangeList([5, 3, 4, 9]) == "3–5, 9")
    #expect(
      CSVNoteTypeCatalog.rangeList(Array(stride(from: 1, through: 40, by: 2)))
        == "1, 3, 5, 7, 9, 11, 13, 15, 17, 19 and 10 more"
    )
  }

  // MARK: - Stock note types

  @Test(
    "stock note types are the real ones: same as in a collection the real Anki made",
    arguments: StockNoteType.allCases.map(\.rawValue))
  func stockNoteTypes(_ name: String) throws {
    let collection = try AnkiPackageReader().read(path: Fixtures.path("anki/latest.colpkg")).collection
    let real = try #require(collection.noteTypes.first { $0.name == name })
    let stock = try #require(StockNoteType(named: name.uppercased())?.noteType)
    #expect(stock.name == real.name)
    #expect(stock.kind == real.kind)
    #expect(stock.fieldNames == real.fieldNames)
    #expect(stock.fields.map(\.tag) == real.fields.map(\.tag))
    #expect(stock.fields.map(\.preventDeletion) == real.fields.map(\.preventDeletion))
    #expect(stock.templates.map(\.name) == real.templates.map(\.name))
    #expect(stock.templates.map(\.questionFormat) == real.templates.map(\.questionFormat))
    #expect(stock.templates.map(\.answerFormat) == real.templates.map(\.answerFormat))
    #expect(stock.css == real.css)
    #expect(stock.sortFieldIndex == real.sortFieldIndex)
    #expect(stock.latexPreamble == real.latexPreamble)
    #expect(stock.latexPostamble == real.latexPostamble)
    #expect(stock.originalStockKind == real.originalStockKind)
    #expect(StockNoteType.isUnchanged(real))
  }

  @Test("a stock note type named in another language is Anki's in that language; English names give the English ones")
  func stockNoteTypesInLanguages() throws {
    let french = try #require(StockNoteType.noteType(named: "basique (CARTE INVERSÉE OPTIONNELLE)"))
    #expect(french.name == "Basique (carte inversée optionnelle)")
    #expect(french.fieldNames == ["Recto", "Verso", "Ajouter le verso"])
    #expect(french.templates.map(\.name) == ["Carte 1", "Carte 2"])
    #expect(french.templates[1].questionFormat == "{{#Ajouter le verso}}{{Verso}}{{/Ajouter le verso}}")
    #expect(french.id == StockNoteType.derivedID(forName: "Basique (carte inversée optionnelle)"))
    #expect(french.originalStockKind == StockNoteType.basicOptionalReversedCard.noteType.originalStockKind)
    #expect(StockNoteType.isUnchanged(french))
    let german = try #require(StockNoteType.noteType(named: "Bildverdeckung"))
    #expect(german.templates[0].answerFormat.contains("Verdeckungen ein-/ausschalten"))
    #expect(german.templates[0].questionFormat.contains("{{cloze:Bildverdeckung}}"))
    for stock in StockNoteType.allCases {
      #expect(StockNoteType.noteType(named: stock.rawValue) == stock.noteType)
    }
    // Malay keeps the name "Basic" but names the back "Belakang": chosen by the field names.
    #expect(
      StockNoteType.noteType(named: "Basic", fieldNames: ["front", "belakang"])?.fieldNames == ["Front", "Belakang"])
    #expect(StockNoteType.noteType(named: "Basic", fieldNames: ["Recto", "Verso"]) == StockNoteType.basic.noteType)
    #expect(StockNoteType.noteType(named: "Basik") == nil)

    let read = try Self.read("#separator:tab\n#notetype:Einfach (und die umgekehrte Richtung)\nHund\tdog\n")
    #expect(read.warnings.isEmpty)
    #expect(read.notes.map(\.cards) == [[0, 1]])
    #expect(read.collection.noteTypes.map(\.fieldNames) == [["Vorderseite", "Rückseite"]])
  }

  @Test("a row naming a stock note type gets its cards: reversed, optional reverse, cloze numbers")
  func stockCards() throws {
    let text = """
      #separator:tab
      #html:true
      #notetype column:1
      Basic (and reversed card)\tfront\tback
      Basic (and reversed card)\tfront\t
      Basic (optional reversed card)\tf\tb\ty
      Basic (optional reversed card)\tf\tb\t
      Cloze\t{{c1,3::a}} {{c2::b {{c5::nested}}}}\textra
      Cloze\tno deletions\t
      basic\t<br>\tback
      """
    let notes = try Self.read(text).notes
    #expect(notes.map(\.cards) == [[0, 1], [0], [0, 1], [0], [0, 1, 2, 4], [0], [0]])
    #expect(notes.last?.noteType == "Basic")
  }

  // MARK: - Spreadsheets

  @Test("a Quizlet export (term TAB definition) becomes Basic notes in the deck named")
  func quizlet() throws {
    let options = CSVOptions(deck: "French")
    let (collection, warnings) = try CSVReader(options: options).read(path: Fixtures.path("csv/sheets/quizlet.txt"))
    #expect(warnings.isEmpty)
    #expect(
      NoteView.all(collection).map(\.fields) == [
        ["le chat", "the cat"], ["la maison", "the house, the home"], ["manger", "to eat; to dine"],
        ["l&#x27;école", "the school"],
      ])
    #expect(collection.decks.map(\.name) == ["French"])
  }

  @Test("a spreadsheet with a header row: names map the columns, BOM and CRLF handled, tags column named")
  func headerRow() throws {
    let options = CSVOptions(hasHeaderRow: true, deck: "Words")
    let (collection, warnings) = try CSVReader(options: options).read(
      path: Fixtures.path("csv/sheets/header_bom_crlf.csv"))
    #expect(warnings.isEmpty)
    let notes = NoteView.all(collection)
    #expect(
      notes.map(\.fields) == [
        ["bonjour", "hello"], ["merci, beaucoup", #"thank you "very" much"#], ["deux\nlignes", "two lines"],
        ["<b>gras</b>", "bold"],
      ])
    #expect(notes.map(\.tags) == [["french", "greeting"], ["french"], [], ["html"]])
    #expect(Set(notes.flatMap(\.decks)) == ["Words"])
  }

  @Test("--columns maps a sheet's columns: fields by name or front/back, tags, deck, skipped columns")
  func columnMapping() throws {
    let text = "Q1,ignored,A1,t1 t2,Deck A::Sub\nQ2,x,A2,,\n"
    // A plain spreadsheet's separator comes from its extension (Anki's detection would take
    // the ':' of "A::Sub").
    let options = CSVOptions(columns: try ColumnMapping(parsing: "front,-,back,tags,deck"))
    let (notes, collection, warnings) = try Self.read(text, name: "sheet.csv", options)
    #expect(warnings.isEmpty)
    #expect(notes.map(\.fields) == [["Q1", "A1"], ["Q2", "A2"]])
    #expect(notes.map(\.tags) == [["t1", "t2"], []])
    #expect(notes.map(\.decks) == [["Deck A::Sub"], ["Default"]])
    #expect(Set(collection.decks.map(\.name)) == ["Deck A", "Deck A::Sub", "Default"])
  }

  @Test("header names that match no field of the note type are taken in order")
  func headerNamesByPosition() throws {
    let text = "Term,Definition\nle chien,the dog\n"
    let notes = try Self.read(text, CSVOptions(hasHeaderRow: true)).notes
    #expect(notes.map(\.fields) == [["le chien", "the dog"]])
  }

  @Test("an unknown --note-type gets the --columns names as its fields, with a warning")
  func unknownNoteTypeFromColumns() throws {
    let options = CSVOptions(columns: try ColumnMapping(parsing: "Word,Meaning,Example"), noteType: "Vocab")
    let (notes, collection, warnings) = try Self.read("être,to be,Je suis.\n", options)
    #expect(
      notes == [
        NoteView(
          guid: notes[0].guid, noteType: "Vocab", fields: ["être", "to be", "Je suis."], tags: [], decks: ["Default"],
          cards: [0])
      ])
    #expect(collection.noteTypes.first?.fieldNames == ["Word", "Meaning", "Example"])
    #expect(
      warnings == [
        "in.csv:1: warning: [csv-note-type] note type 'Vocab' is not one of Anki's stock note types and a CSV file cannot define one: made a note type with one card showing the first field and the fields Word, Meaning, Example (line 1)"
      ])
  }

  @Test("#notetype naming an unknown type takes its fields from #columns; cloze deletions make it a cloze type")
  func unknownNoteTypeFromDirectives() throws {
    let text = "#separator:;\n#notetype:My Cloze\n#columns:Expression;Notes: extra\n{{c1::le}} chat;cat\n"
    let (notes, collection, _) = try Self.read(text)
    let noteType = try #require(collection.noteTypes.first)
    #expect(noteType.kind == .cloze)
    #expect(noteType.fieldNames == ["Expression", "Notes extra"])
    #expect(noteType.templates.first?.questionFormat == "{{cloze:Expression}}")
    #expect(notes.first?.fields == ["{{c1::le}} chat", "cat"])
  }

  @Test("a stock note type that rows give more fields keeps them, named by #columns, with a warning")
  func widenedStockType() throws {
    let text =
      "#separator:tab\n#html:true\n#notetype column:1\n#columns:type\tText\tBack Extra\tFrequency\tImage\nCloze\t{{c1::a}}\t\t3\t\nBasic\tq\ta\t\t\n"
    let (notes, collection, warnings) = try Self.read(text, name: "w.txt")
    let cloze = try #require(collection.noteTypes.first { $0.name == "Cloze" })
    #expect(cloze.fieldNames == ["Text", "Back Extra", "Frequency"])
    #expect(notes.map(\.fields) == [["{{c1::a}}", "", "3"], ["q", "a"]])
    #expect(
      warnings == [
        "w.txt:5: warning: [csv-note-type] rows give note type 'Cloze' 3 fields, but the stock 'Cloze' has 2 (Text, Back Extra); 'Cloze' gets the stock templates plus the fields Frequency (line 5)"
      ])
  }

  // MARK: - Text, tags, GUIDs, padding

  @Test("plain text (#html:false) is escaped and its line breaks become <br>; carriage returns go, as in Anki")
  func plainText() throws {
    let text = "#html:false\n#separator:,\n\"front <1> & \"\"q\"\" 's'\",\"a\r\nb\"\n"
    #expect(try Self.read(text).notes.first?.fields == ["front &lt;1&gt; &amp; &quot;q&quot; &#x27;s&#x27;", "a<br>b"])
  }

  @Test("without #html, a <…> in the first five rows makes every field HTML, as Anki detects it")
  func htmlDetection() throws {
    #expect(try Self.read("a<b>,c\nx & y,z\n").notes.map(\.fields) == [["a<b>", "c"], ["x & y", "z"]])
    #expect(try Self.read("a<b,c\nx & y,z\n").notes.map(\.fields) == [["a&lt;b", "c"], ["x &amp; y", "z"]])
  }

  @Test("the separator is detected as Anki detects it, and a detection that disagrees with .csv is reported")
  func separatorDetection() throws {
    let (notes, _, warnings) = try Self.read("front1;back1,x\n", name: "s.csv")
    #expect(notes.map(\.fields) == [["front1", "back1,x"]])
    #expect(
      warnings == [
        "s.csv: warning: [csv-separator] the file has no #separator: line, and the separator found the way Anki finds it is semicolon, not comma as the extension suggests; pass CSVOptions.separator if that is wrong"
      ])
    #expect(
      try Self.read("front1;back1,x\n", CSVOptions(separator: .comma)).notes.map(\.fields) == [["front1;back1", "x"]])
    #expect(try Self.read("one two\n", name: "s.txt").notes.map(\.fields) == [["one", "two"]])
  }

  @Test("global tags (#tags: and the legacy tags: line) are added to every note; tags split on white space")
  func globalTags() throws {
    #expect(try Self.read("tags:g1 g2\na,b\n").notes.first?.tags == ["g1", "g2"])
    let text = "#separator:,\n#tags:global\n#tags column:3\na,b,t1  t2\tt3\n"
    #expect(try Self.read(text).notes.first?.tags == ["global", "t1", "t2", "t3"])
  }

  /// Anki's importer takes a file's columns from its first row (seen on a real file, the JLPT N4
  /// list in `fixtures/csv/real/`, whose header row has no `|` but whose GUIDs do): a field past
  /// them stays empty, and a later row's cells there are dropped, each with a warning.
  @Test("fields by position only among the first row's columns, as Anki's importer takes them")
  func columnsFromFirstRow() throws {
    let (notes, _, warnings) = try Self.read("#separator:tab\na\nc\td\ne\tf\tg\n", name: "p.txt")
    #expect(notes.map(\.fields) == [["a", ""], ["c", ""], ["e", ""]])
    #expect(
      warnings.first
        == "p.txt:2: warning: [csv-unmapped] no column holds the field 'Back' of note type 'Basic'; it is left empty (Anki's importer takes a file's columns from its first row, which has 1 column; a #columns: line names them)"
    )
    #expect(
      warnings.contains {
        $0.hasPrefix("p.txt:3: warning: [csv-dropped] ") && $0.contains("3 non-empty cells in columns 2–3")
      })
    // A #columns: line gives the columns, whatever the first row has.
    let labelled = try Self.read("#separator:tab\n#columns:\t\na\nc\td\n", name: "p.txt")
    #expect(labelled.notes.map(\.fields) == [["a", ""], ["c", "d"]])
  }

  @Test("rows with fewer fields are padded and counted in one warning; an empty first field skips the row")
  func paddingAndSkipping() throws {
    let text = "#separator:,\n#notetype:Basic (optional reversed card)\na,b,c\nd\ne,f\n,g,h\n"
    let (notes, _, warnings) = try Self.read(text, name: "p.csv")
    #expect(notes.map(\.fields) == [["a", "b", "c"], ["d", "", ""], ["e", "f", ""]])
    #expect(
      warnings == [
        "p.csv:6: warning: [csv-skipped] 1 row has an empty first field and was skipped, as Anki's importer skips such rows (line 6)",
        "p.csv:4: warning: [csv-padded] 2 rows have fewer fields than their note type and were padded with empty fields, as Anki pads them (lines 4, 5)",
      ])
  }

  /// Seen on a real Brain Brew sheet (base91 GUIDs may start with '#'): Anki's importer skips a
  /// line that starts with '#' as a comment, and five rows went with no word
  /// (`fixtures/csv/real/uk_geography.csv`, whose truth file is the real importer's reading).
  @Test("a line that starts with '#' between rows is skipped as Anki skips it, with a warning naming it")
  func commentLinesThatLookLikeRows() throws {
    let text = "#abc\tfirst\nq1\ta1\n#def\tsecond\nq2\ta2\n#notab\n#g\tthird\n"
    let (notes, _, warnings) = try Self.read(text, name: "c.txt")
    #expect(notes.map(\.fields) == [["q1", "a1"], ["q2", "a2"]])
    #expect(
      warnings == [
        "c.txt:1: warning: [csv-comment-rows] 4 lines where a row would start begin with '#'; Anki's importer skips such lines as comments, and so does this reading, though they may be rows (lines 1, 3, 5, 6); quote a first cell that starts with '#' (\"#…\") to keep its row, or, if the file is a spreadsheet whose first row names its columns, give CSVOptions.hasHeaderRow, which reads every later row as data"
      ])
    // A comment at the top with no separator holds no cells: taken for a comment, no warning.
    #expect(try Self.read("# made by hand\nq\ta\n", name: "c.txt").warnings.isEmpty)
    // Quoted, the cell is a row's.
    #expect(try Self.read("\"#abc\"\tfirst\n", name: "c.txt").notes.map(\.fields) == [["#abc", "first"]])
  }

  @Test("a spreadsheet with a header row reads a row whose first cell starts with '#' as data")
  func spreadsheetRowsStartingWithHash() throws {
    let text = "guid,front,back\n#u$_~a^;@N,Isle of Wight,Newport\nxyz,Somerset,Taunton\n"
    let (notes, _, warnings) = try Self.read(text, name: "uk.csv", CSVOptions(hasHeaderRow: true))
    #expect(notes.map(\.guid) == ["#u$_~a^;@N", "xyz"])
    #expect(notes.map(\.fields) == [["Isle of Wight", "Newport"], ["Somerset", "Taunton"]])
    #expect(!warnings.contains { $0.contains("csv-comment-rows") })
  }

  @Test(
    "a spreadsheet's first row may start with '#' (a column named '#'): it is the header row, or with --columns alone a row; Anki's directives above it still count, and a sheet has no comments"
  )
  func spreadsheetFirstRowStartingWithHash() throws {
    let numbered = "#,Front,Back\n1,hello,bonjour\n2,cat,chat\n"
    let mapping = try ColumnMapping(parsing: "-,front,back")
    let headed = try Self.read(numbered, name: "s.csv", CSVOptions(hasHeaderRow: true, columns: mapping))
    #expect(headed.notes.map(\.fields) == [["hello", "bonjour"], ["cat", "chat"]])
    #expect(headed.warnings.isEmpty)
    // Named by the header row, the column '#' is no field of Basic's: an error that says so.
    #expect(throws: DeckError.self) { try Self.read(numbered, name: "s.csv", CSVOptions(hasHeaderRow: true)) }
    let rows = try Self.read(numbered, name: "s.csv", CSVOptions(columns: mapping))
    #expect(rows.notes.map(\.fields) == [["Front", "Back"], ["hello", "bonjour"], ["cat", "chat"]])
    let directives = "#separator:semicolon\n#;Front;Back\n1;a;b\n"
    let (notes, collection, warnings) = try Self.read(
      directives, name: "d.txt", CSVOptions(hasHeaderRow: true, columns: mapping))
    #expect(notes.map(\.fields) == [["a", "b"]])
    #expect(collection.notes.count == 1 && warnings.isEmpty)
    // One column: the line holds no separator, and is still a row, not a comment.
    let oneColumn = try Self.read(
      "#hashtag one\nsecond\n", name: "one.csv",
      CSVOptions(columns: try ColumnMapping(parsing: "front"), noteType: "Basic"))
    #expect(oneColumn.notes.map { $0.fields[0] } == ["#hashtag one", "second"])
    // The legacy first line `tags:` is Anki's, in a spreadsheet too.
    let tagged = try Self.read(
      "tags:vocab extra\nx,y\n", name: "t.csv", CSVOptions(columns: try ColumnMapping(parsing: "front,back")))
    #expect(tagged.notes.map(\.fields) == [["x", "y"]] && tagged.notes.map(\.tags) == [["extra", "vocab"]])
    // A directive below a comment is read as a row, and said so.
    let late = try Self.read(
      "# exported from a sheet\n#separator:semicolon\nfront;back\nx;y\n", name: "late.csv",
      CSVOptions(hasHeaderRow: true))
    #expect(
      late.warnings.contains {
        $0.hasPrefix("late.csv:2: warning: [csv-directive] this row is Anki's directive '#separator:semicolon'")
      })
  }

  @Test(
    "a real sheet whose GUIDs start with '#': five rows skipped as Anki skips them, named; all kept with a header row")
  func realSheetWithHashGUIDs() throws {
    let path = Fixtures.path("csv/real/uk_geography.csv")
    let (asAnki, ankiWarnings) = try CSVReader().read(path: path)
    #expect(asAnki.notes.count == 187)
    #expect(
      ankiWarnings.map(\.description).contains {
        $0.hasPrefix("\(path):52: warning: [csv-comment-rows] 5 lines where a row would start begin with '#'")
          && $0.contains("(lines 52, 55, 76, 109, 169)")
      })
    let sheetOptions = CSVOptions(separator: .comma, hasHeaderRow: true, noteType: "UK geography")
    let (sheet, sheetWarnings) = try CSVReader(options: sheetOptions).read(path: path)
    #expect(sheet.notes.count == 191)
    #expect(
      Set(sheet.notes.map(\.guid)).isSuperset(of: [
        "#u$_~a^;@N", "#%VruHCWN*", "#eM0qK@sg9", "#^FuY8QTTQ", "#Sww~g-ZL6",
      ]))
    #expect(!sheetWarnings.contains { $0.category == "csv-comment-rows" })
  }

  @Test("a note type the rows name but Anki lacks: the warning counts every row's line")
  func madeNoteTypeCountsEveryLine() throws {
    let text =
      "#separator:comma\n#notetype column:1\n" + (1...20).map { "MyType,q\($0),a\($0)" }.joined(separator: "\n") + "\n"
    let warnings = try Self.read(text, name: "m.csv").warnings
    #expect(
      warnings.contains {
        $0.hasPrefix("m.csv:3: warning: [csv-note-type] ") && $0.hasSuffix("(lines 3, 4, 5, 6, 7 and 15 more)")
      })
  }

  @Test("cells no field takes: the warning counts every line, not only the five it names")
  func droppedCellsCountEveryLine() throws {
    let text = "a\n" + (1...7).map { "x\($0)\ty" }.joined(separator: "\n") + "\n"
    let warnings = try Self.read(text, name: "d.txt").warnings
    #expect(
      warnings.contains {
        $0.hasPrefix("d.txt:2: warning: [csv-dropped] ")
          && $0.contains("7 non-empty cells in column 2") && $0.contains("(lines 2, 3, 4, 5, 6 and 2 more)")
      })
  }

  @Test(
    "GUIDs: a GUID column is kept; otherwise derived from the note's identity, the same on every read; a repeated GUID is replaced"
  )
  func guids() throws {
    let text = "#separator:,\n#guid column:1\nabc,q1,a1\n,q2,a2\nabc,q3,a3\n,q2,a2\n"
    let first = try Self.read(text, name: "g.csv")
    let second = try Self.read(text, name: "g.csv")
    #expect(first.notes.map(\.guid) == second.notes.map(\.guid))
    #expect(first.collection == second.collection)
    #expect(first.notes[0].guid == "abc")
    #expect(Set(first.notes.map(\.guid)).count == 4)
    #expect(
      first.warnings == [
        "g.csv:5: warning: [csv-guid] 1 row repeats the GUID of an earlier row; it gets a GUID derived from its note type, first field and top-level deck (line 5)"
      ])
  }

  @Test("a derived GUID follows the first field and the top-level deck, not the other fields, tags or subdeck")
  func derivedGUIDs() throws {
    let header = "#separator:,\n#deck column:1\n#tags column:4\n"
    let first = try Self.read(header + "French,chat,cat,animal\nFrench,banque,bank,\nFrench,banque,shore,\n").notes
    let edited = try Self.read(
      header + "french::Nouns,chat,cat (animal),animal pet\nFrench,banque,bank (money),\nFrench,banque,shore,\n"
    ).notes
    // The back, the tags and the subdeck changed (and the deck's case): the same notes.
    #expect(edited.map(\.guid) == first.map(\.guid))
    #expect(Set(first.map(\.guid)).count == 3, "the homonym gets the next GUID")
    let elsewhere = try Self.read(header + "Latin,chat,cat,\nFrench,chats,cats,\n").notes
    #expect(elsewhere[0].guid != first[0].guid, "another top-level deck")
    #expect(elsewhere[1].guid != first[0].guid, "another first field")
  }

  @Test(
    "decks are matched ignoring case, parents are created, Default is deck 1; an empty deck cell is 'blank', as in Anki"
  )
  func decks() throws {
    let text = "#separator:,\n#deck column:1\nA::B,q1,a\na::b,q2,a\n,q3,a\nC,q4,a\nDefault,q5,a\n"
    let (notes, collection, warnings) = try Self.read(text)
    #expect(notes.map(\.decks) == [["A::B"], ["A::B"], ["blank"], ["C"], ["Default"]])
    #expect(Set(collection.decks.map(\.name)) == ["A", "A::B", "blank", "C", "Default"])
    #expect(collection.decks.first { $0.name == "Default" }?.id == 1)
    #expect(
      warnings == [
        "in.csv:5: warning: [deck-renamed] a row's deck cell is empty: Anki's import puts such rows in a deck named 'blank', and so does deckport"
      ])
  }
}
