import DeckConversion
import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("DeckDifference")
struct DeckDifferenceTests {
  private static func load(_ path: String) throws -> LoadedDeck {
    try DeckLoader().load(path: path)
  }

  /// The difference from the deckport JSON deck `deckJSON` to the app records `deckport
  /// convert` makes of it in storage of `format` (`app-json`, `sqlite`, …).
  private static func differenceFromRecords(of deckJSON: String, as format: String) throws -> DeckDifference {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let source = scratch.path(for: "deck.json")
    try Data(deckJSON.utf8).write(to: URL(fileURLWithPath: source))
    let records = scratch.path(for: format == "sqlite" ? "cards.sqlite" : "cards.json")
    let run = try CommandRun.deckport(["convert", source, records, "--to", format])
    #expect(run.status == 0, "\(run.standardError)")
    return try DeckDifference(from: load(source), to: load(records))
  }

  /// `deck` as if it had been read from a file of the format `name` (the registry's description
  /// of that format says what it holds).
  static func read(_ deck: LoadedDeck, as name: String) -> LoadedDeck {
    var other = deck
    other.formatName = name
    other.format = nil
    return other
  }

  @Test(
    "a deck against itself converted to another format: no difference",
    arguments: ["json", "apkg-modern", "colpkg", "colpkg-modern", "apkg"])
  func convertedCopyIsEqual(format: String) throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let source = Fixtures.path("anki/latest_sched.apkg")
    let copy = scratch.path(
      for: "copy.\(format.hasPrefix("colpkg") ? "colpkg" : format.hasPrefix("apkg") ? "apkg" : format)")
    let run = try CommandRun.deckport(["convert", source, copy, "--to", format, "--quiet"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let difference = try DeckDifference(from: Self.load(source), to: Self.load(copy))
    #expect(difference.isEmpty, "\(difference.lines.joined(separator: "\n"))")
    #expect(difference.lines.contains("No differences."))
  }

  @Test(
    "every generation Anki exported of one collection is the same deck",
    arguments: ["legacy2_sched.apkg", "legacy1.apkg", "legacy2_nometa.apkg", "latest.colpkg", "legacy.colpkg"])
  func generationsAreEqual(file: String) throws {
    let difference = try DeckDifference(
      from: Self.load(Fixtures.path("anki/latest_sched.apkg")), to: Self.load(Fixtures.path("anki/\(file)")))
    #expect(difference.isEmpty, "\(difference.lines.joined(separator: "\n"))")
  }

  @Test("notes that share a GUID are compared in order, the second with the second, not folded into the first")
  func notesSharingAGUID() throws {
    var original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    #expect(original.collection.notes.count >= 4)
    for index in 0..<3 { original.collection.notes[index].guid = "shared" }
    var changed = original
    changed.collection.notes[1].fields[0] = "changed on the second"
    changed.collection.notes[2].guid = "its own now"
    let secondID = original.collection.notes[1].id
    let secondCards = original.collection.cards.filter { $0.noteID == secondID }.count
    if let card = changed.collection.cards.firstIndex(where: { $0.noteID == secondID }) {
      changed.collection.cards[card].scheduling.lapses += 7
    }
    let difference = try DeckDifference(from: original, to: changed)
    #expect(difference.notes.changed.map(\.guid) == ["shared"])
    #expect(difference.notes.changed.first?.fields.map(\.new) == ["changed on the second"])
    #expect(difference.notes.added.map(\.guid) == ["its own now"])
    #expect(difference.notes.removed.map(\.guid) == ["shared"])
    #expect(difference.notes.removed.first?.fields.first?.value == original.collection.notes[2].fields[0])
    // The second note's card is compared with the second note's card.
    #expect(secondCards > 0)
    #expect(difference.scheduling.changed.map(\.guid) == ["shared"])
    #expect(difference.scheduling.changed.first?.changes.map(\.property) == ["lapses"])
  }

  @Test("a card whose template ordinal is the largest integer is written #9223372036854775808, added or changed")
  func largestOrdinal() throws {
    var original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    original.collection.cards[0].templateOrdinal = .max
    var changed = original
    changed.collection.cards[0].scheduling.due += 1
    #expect(try DeckDifference(from: original, to: changed).text.contains("#9223372036854775808: due"))
    var withoutIt = original
    withoutIt.collection.cards.remove(at: 0)
    #expect(try DeckDifference(from: withoutIt, to: original).text.contains("#9223372036854775808"))
    var reviewed = original
    reviewed.collection.reviews.append(
      Review(
        id: 1_795_331_276_999, cardID: original.collection.cards[0].id, ease: 3, interval: 1, lastInterval: 0,
        easeFactor: 2500, duration: 1000, kind: .learning))
    #expect(try DeckDifference(from: original, to: reviewed).text.contains("#9223372036854775808, ease 3"))
  }

  @Test("deletion records: added and removed by kind, id and update sequence number; not compared against CSV")
  func deletionRecords() throws {
    let original = try Self.load(Fixtures.path("real/indian-music-legacy.colpkg"))
    #expect(original.collection.deletions.count == 4)
    var changed = original
    changed.collection.deletions[0].updateSequenceNumber = 5
    changed.collection.deletions.append(Deletion(objectID: 42, kind: .deck))
    let id = original.collection.deletions[0].objectID
    let difference = try DeckDifference(from: original, to: changed)
    #expect(difference.deletions.added == ["deck 42 (usn -1)", "note \(id) (usn 5)"])
    #expect(difference.deletions.removed == ["note \(id) (usn -1)"])
    #expect(difference.counts.deletions.added == 2 && difference.counts.deletions.removed == 1)
    #expect(!difference.isEmpty)
    #expect(difference.lines.contains("Deletion records: 2 added, 1 removed"))
    #expect(difference.lines.contains("  - note \(id) (usn -1)"))
    #expect(difference.statLines.contains("deletions:  2 added, 1 removed"))

    let againstCSV = try DeckDifference(from: original, to: Self.read(changed, as: "csv"))
    #expect(againstCSV.deletions.added.isEmpty && againstCSV.deletions.removed.isEmpty)
    #expect(againstCSV.notCompared.map(\.explanation).contains("deletion records: not compared (csv holds none)"))
  }

  @Test(
    "a deck package against the collection: unused items, settings and the list of tags are not compared, and it says so"
  )
  func deckPackageAgainstCollection() throws {
    let collection = try Self.load(Fixtures.path("anki/latest.colpkg"))
    #expect(collection.collection.media.contains { $0.name == "unused.png" })
    let difference = try DeckDifference(from: collection, to: Self.load(Fixtures.path("anki/latest_sched.apkg")))
    #expect(difference.isEmpty)
    #expect(
      difference.notCompared.map(\.explanation) == [
        "collection settings: not compared (apkg-latest holds none)",
        "the collection's list of tags: not compared (apkg-latest holds none)",
        "note types, media and decks nothing uses: not compared (apkg-latest holds none)",
      ])
  }

  @Test("cards: steps left, flags, original due and deck, data by meaning; reviews: their values and card")
  func cardAndReviewValues() throws {
    let original = try Self.load(Fixtures.path("anki/latest.colpkg"))
    var changed = original
    var collection = changed.collection
    let filteredDeckID = try #require(collection.decks.first { $0.name == "Languages" }).id
    let before = collection.cards[0].scheduling
    #expect(before.remainingSteps != 1002 && before.flags != 6 && before.originalDue == 0 && before.originalDeckID == 0)
    collection.cards[0].scheduling.remainingSteps = 1002
    collection.cards[0].scheduling.flags = 6
    collection.cards[0].scheduling.originalDue = 17
    collection.cards[0].scheduling.originalDeckID = filteredDeckID
    collection.cards[0].scheduling.data = #"{"s":1.5,"d":5.0}"#
    let sameData = collection.cards[1].scheduling.data.isEmpty ? "{}" : collection.cards[1].scheduling.data
    collection.cards[1].scheduling.data = sameData
    let reviewed = collection.reviews[0]
    collection.reviews[0].duration += 1000
    collection.reviews[0].kind = .manual
    let otherCard = try #require(collection.cards.first { $0.id != reviewed.cardID })
    collection.reviews[1].cardID = otherCard.id
    changed.collection = collection
    let difference = try DeckDifference(from: original, to: changed)

    let guids = Dictionary(uniqueKeysWithValues: collection.notes.map { ($0.id, $0.guid) })
    let card = try #require(difference.scheduling.changed.first)
    #expect(difference.scheduling.changed.count == 1 && card.guid == guids[collection.cards[0].noteID])
    #expect(card.changes.map(\.property) == ["left", "flags", "odue"])
    #expect(card.changes.map(\.old) == [Int64(before.remainingSteps), Int64(before.flags), 0])
    #expect(card.changes.map(\.new) == [1002, 6, 17])
    #expect(card.originalDeck?.old == "(none)" && card.originalDeck?.new == "Languages")
    #expect(card.data?.new == #"{"s":1.5,"d":5.0}"#)
    #expect(difference.reviews.changed.map(\.id) == [collection.reviews[0].id, collection.reviews[1].id])
    let first = try #require(difference.reviews.changed.first)
    #expect(
      first.changes.map { "\($0.property) \($0.old) → \($0.new)" } == [
        "time \(reviewed.duration) → \(reviewed.duration + 1000)", "type \(reviewed.kind.rawValue) → 4",
      ])
    #expect(first.card == nil)
    let moved = try #require(difference.reviews.changed.last)
    #expect(
      moved.changes.isEmpty
        && moved.card?.new == "card \(guids[otherCard.noteID] ?? "") #\(otherCard.templateOrdinal + 1)")
    #expect(difference.counts.reviews.changed == 2 && difference.counts.cards.changed == 1)
    let lines = difference.lines
    let cardLine =
      "  ~ card \(card.guid) #\(card.ord + 1): left \(before.remainingSteps) → 1002, flags \(before.flags) → 6, odue 0 → 17, "
      + "original deck (none) → Languages, data: d 5.0 added; s 1.5 added"
    #expect(lines.contains(cardLine), "\(lines)")
    #expect(
      lines.contains(
        "  ~ review \(reviewed.id): time \(reviewed.duration) → \(reviewed.duration + 1000), type \(reviewed.kind.rawValue) → 4"
      ))
    #expect(difference.statLines.contains("reviews:    0 added, 0 removed, 2 changed"))
  }

  @Test("the collection's creation time, from which review due dates count: compared with the scheduling")
  func creationTime() throws {
    let original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    var changed = original
    changed.collection.creationTime += 86_400
    let difference = try DeckDifference(from: original, to: changed)
    #expect(difference.creationTime?.old == original.collection.creationTime)
    #expect(difference.creationTime?.new == original.collection.creationTime + 86_400)
    #expect(!difference.isEmpty)
    #expect(
      difference.lines.contains(
        "Collection creation time (day 0 of review due dates): \(original.collection.creationTime) → \(original.collection.creationTime + 86_400) (seconds since 1970)"
      ))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(difference.jsonText().utf8)) as? [String: Any])
    #expect((json["creationTime"] as? [String: Int64])?["new"] == original.collection.creationTime + 86_400)
    #expect(json["equal"] as? Bool == false)
    #expect(try DeckDifference(from: original, to: Self.read(changed, as: "csv")).creationTime == nil)
    let same = try DeckDifference(from: original, to: original).jsonText()
    #expect((try JSONSerialization.jsonObject(with: Data(same.utf8)) as? [String: Any])?["creationTime"] == nil)
  }

  /// `YYYY-MM-DD` of the UTC day `seconds` since 1970 fall on (Foundation's ISO 8601 formatter,
  /// not the calendar code the difference uses): the date Anki day N of a collection that does
  /// not record its time zone starts on, at `creationTime + N × 86,400`.
  private static func utcDate(_ seconds: Int64) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
  }

  /// The positions of the cards of `collection` that are due on a day: under review or in
  /// learning across days (by their queue), or suspended or buried under review (by their type).
  private static func dayDueCards(_ collection: DeckCollection) -> [Int] {
    collection.cards.indices.filter {
      let scheduling = collection.cards[$0].scheduling
      return [.review, .dayLearning].contains(scheduling.queue)
        || ([.suspended, .buriedBySibling, .buriedByUser].contains(scheduling.queue) && scheduling.type == .review)
    }
  }

  @Test("a creation time moved alone moves every card due on a day: changed, shown as dates, numbers kept in JSON")
  func creationTimeMovesDueDates() throws {
    let utc = try #require(TimeZone(secondsFromGMT: 0))
    let original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    let creation = original.collection.creationTime
    var changed = original
    changed.collection.creationTime -= 86_400
    let difference = try DeckDifference(from: original, to: changed, timeZone: utc)
    let dayDue = Self.dayDueCards(original.collection)
    #expect(dayDue.count == 3)
    let guids = Dictionary(uniqueKeysWithValues: original.collection.notes.map { ($0.id, $0.guid) })
    let expected = dayDue.map { index -> [String] in
      let card = original.collection.cards[index]
      let due = card.scheduling.due
      return [
        guids[card.noteID] ?? "", "\(card.templateOrdinal)", "due", "\(due)", "\(due)",
        Self.utcDate(creation + due * 86_400), Self.utcDate(creation - 86_400 + due * 86_400),
      ]
    }
    let reported = difference.scheduling.changed.flatMap { card in
      card.changes.map {
        [card.guid, "\(card.ord)", $0.property, "\($0.old)", "\($0.new)", $0.oldDate ?? "-", $0.newDate ?? "-"]
      }
    }
    #expect(
      reported.sorted { $0.lexicographicallyPrecedes($1) } == expected.sorted { $0.lexicographicallyPrecedes($1) })
    #expect(difference.counts.cards.changed == 3)
    let lines = difference.lines
    for row in expected {
      let line = "  ~ card \(row[0]) #\((Int(row[1]) ?? 0) + 1): due \(row[5]) → \(row[6])"
      #expect(lines.contains(line), "\(lines)")
    }
    let json = try #require(try JSONSerialization.jsonObject(with: Data(difference.jsonText().utf8)) as? [String: Any])
    let changes = ((json["scheduling"] as? [String: Any])?["changed"] as? [[String: Any]])?.first?["changes"]
    let change = try #require((changes as? [[String: Any]])?.first)
    #expect(change["property"] as? String == "due" && change["old"] as? Int64 == change["new"] as? Int64)
    #expect((change["oldDate"] as? String)?.count == 10 && (change["newDate"] as? String)?.count == 10)
  }

  @Test("a creation time moved with the day numbers to match changes no card; a filtered deck's original due too")
  func renumberedDaysAreTheSame() throws {
    let utc = try #require(TimeZone(secondsFromGMT: 0))
    var original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    let dayDue = Self.dayDueCards(original.collection)
    // The first card due on a day sits in a filtered deck: its day is its original due.
    let filtered = try #require(dayDue.first)
    let filteredDeck = try #require(original.collection.decks.first { $0.name == "Languages" }).id
    original.collection.cards[filtered].scheduling.originalDue = original.collection.cards[filtered].scheduling.due
    original.collection.cards[filtered].scheduling.originalDeckID = original.collection.cards[filtered].deckID
    original.collection.cards[filtered].scheduling.due = -100_000
    original.collection.cards[filtered].deckID = filteredDeck
    var renumbered = original
    renumbered.collection.creationTime += 86_400
    for index in dayDue {
      if index == filtered {
        renumbered.collection.cards[index].scheduling.originalDue -= 1
      } else {
        renumbered.collection.cards[index].scheduling.due -= 1
      }
    }
    let difference = try DeckDifference(from: original, to: renumbered, timeZone: utc)
    #expect(difference.scheduling.changed.isEmpty && difference.counts.cards.changed == 0)
    #expect(difference.creationTime != nil)
    #expect(!difference.lines.contains { $0.hasPrefix("Scheduling") })

    // The filtered card's original due moved alone: shown as its date.
    var moved = original
    moved.collection.cards[filtered].scheduling.originalDue += 2
    let creation = original.collection.creationTime
    let day = original.collection.cards[filtered].scheduling.originalDue
    let change = try #require(
      try DeckDifference(from: original, to: moved, timeZone: utc).scheduling.changed.first?.changes.first)
    #expect(
      [change.property, "\(change.old)", "\(change.new)", change.oldDate, change.newDate] == [
        "odue", "\(day)", "\(day + 2)", Self.utcDate(creation + day * 86_400),
        Self.utcDate(creation + (day + 2) * 86_400),
      ])
  }

  @Test("a card's data changed: each key added, removed or changed is named, however long the data")
  func cardDataKeyByKey() throws {
    let original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    var before = original
    before.collection.cards[0].scheduling.data =
      #"{"s":31.2345,"d":5.679,"dr":0.9,"decay":0.154,"lrt":1794223122,"cd":{"a":1,"b":"x"}}"#
    var after = before
    after.collection.cards[0].scheduling.data = #"{"s":31.2345,"d":5.679,"dr":0.9,"decay":0.154,"cd":{"a":2,"c":true}}"#
    let difference = try DeckDifference(from: before, to: after)
    let card = try #require(difference.scheduling.changed.first)
    #expect(difference.scheduling.changed.count == 1 && card.changes.isEmpty)
    #expect(card.data?.new == after.collection.cards[0].scheduling.data)
    let keys = try #require(card.dataChanges)
    #expect(keys.changed.map { [$0.key, $0.old, $0.new] } == [["cd.a", "1", "2"]])
    #expect(keys.removed.map { [$0.key, $0.value] } == [["cd.b", #""x""#], ["lrt", "1794223122"]])
    #expect(keys.added.map { [$0.key, $0.value] } == [["cd.c", "true"]])
    #expect(
      difference.lines.contains(
        #"  ~ card \#(card.guid) #\#(card.ord + 1): data: cd.a 1 → 2; cd.b "x" removed; lrt 1794223122 removed; cd.c true added"#
      ), "\(difference.lines)")
    // Anki keeps custom data as the text of an object: its keys are named too.
    var customText = before
    customText.collection.cards[0].scheduling.data = #"{"s":40000.0,"cd":"{\"streak\": 3, \"tag\": \"x\"}"}"#
    var customChanged = customText
    customChanged.collection.cards[0].scheduling.data = #"{"s":40000.0,"cd":"{\"streak\": 3}"}"#
    let custom = try #require(try DeckDifference(from: customText, to: customChanged).scheduling.changed.first)
    #expect(custom.dataChanges?.removed.map { [$0.key, $0.value] } == [["cd.tag", #""x""#]])
    #expect(custom.dataChanges?.added.isEmpty == true && custom.dataChanges?.changed.isEmpty == true)
    // Data that is not a JSON object is shown as its text.
    var notJSON = before
    notJSON.collection.cards[0].scheduling.data = "not json"
    let shown = try #require(try DeckDifference(from: before, to: notJSON).scheduling.changed.first)
    #expect(shown.dataChanges == nil && shown.data?.new == "not json")
  }

  @Test("deck descriptions, filtered-deck searches and note type settings; not compared against a TSV")
  func details() throws {
    let original = try Self.load(Fixtures.path("anki/latest.colpkg"))
    var changed = original
    var collection = changed.collection
    let languages = try #require(collection.decks.firstIndex { $0.name == "Languages" })
    collection.decks[languages].description = "New <i>text</i>"
    collection.decks[languages].kind = .filtered(
      FilteredDeck(reschedule: true, searchTerms: [.init(search: "deck:current", limit: 50, order: 1)]))
    let basic = try #require(collection.noteTypes.firstIndex { $0.name == "Basic" })
    let before = collection.noteTypes[basic]
    collection.noteTypes[basic].sortFieldIndex = 1
    collection.noteTypes[basic].fields[1].fontSize = 31
    collection.noteTypes[basic].templates[0].targetDeckID = 42
    changed.collection = collection
    let difference = try DeckDifference(from: original, to: changed)

    let deck = try #require(difference.decks.changed.first)
    #expect(difference.decks.changed.count == 1 && deck.name == "Languages")
    #expect(
      deck.settings.map { "\($0.key): \($0.old ?? "-") → \($0.new ?? "-")" } == [
        "description: \"\" → \"New <i>text</i>\"", #"kind: "normal" → "filtered""#,
        "filtered.reschedule: false → true",
        #"filtered.searchTerms: [] → [{"search":"deck:current","limit":50,"order":1}]"#,
      ])
    let noteType = try #require(difference.noteTypes.changed.first)
    #expect(
      noteType.settings.map { "\($0.key): \($0.old ?? "-") → \($0.new ?? "-")" } == [
        "sortField: 0 → 1", "field '\(before.fields[1].name)'.size: \(before.fields[1].fontSize) → 31",
        "template '\(before.templates[0].name)'.deck: null → 42",
      ])
    #expect(difference.counts.decks.changed == 1 && difference.counts.noteTypes.changed == 1)
    #expect(difference.lines.contains("  ~ Languages"))
    #expect(difference.lines.contains("      sortField: 0 → 1"))
    #expect(difference.statLines.contains("decks:      0 added, 0 removed, 1 changed"))

    let againstTSV = try DeckDifference(from: original, to: Self.read(changed, as: "tsv"))
    #expect(againstTSV.decks.changed.isEmpty && againstTSV.noteTypes.changed.allSatisfy { $0.settings.isEmpty })
    #expect(againstTSV.notCompared.contains { $0.aspect == .details })
  }

  @Test("Anki's own TSV export of the deck: equal, and what a TSV cannot hold is named, not shown as removed")
  func ankiTextExportIsEqual() throws {
    let difference = try DeckDifference(
      from: Self.load(Fixtures.path("anki/latest_sched.apkg")),
      to: Self.load(Fixtures.path("csv/anki/latest_notes_all.txt")))
    #expect(difference.isEmpty, "\(difference.lines.joined(separator: "\n"))")
    #expect(
      difference.notCompared.map(\.explanation) == [
        "field names of note types: not compared (tsv holds only those of Anki's stock note types)",
        "card templates and styling: not compared (tsv holds none)",
        "deck option groups: not compared (tsv holds none)",
        "deck descriptions and note type settings: not compared (tsv holds none)",
        "deck and note type ids: not compared (tsv holds none)",
        "scheduling: not compared (tsv holds none)",
        "review log: not compared (tsv holds none)",
        "media: not compared (tsv holds none)",
        "deletion records: not compared (tsv holds none)",
        "collection settings: not compared (apkg-latest and tsv hold none)",
        "the collection's list of tags: not compared (apkg-latest and tsv hold none)",
        "Anki's other properties of decks and note types: not compared (tsv holds none)",
        "modification times of notes and note types: not compared (tsv holds none)",
        "note types, media and decks nothing uses: not compared (apkg-latest and tsv hold none)",
      ])
    #expect(difference.ankiImport == nil, "no note type ids or modification times in a TSV file")
    #expect(difference.counts.cards.isEmpty && difference.counts.reviews.isEmpty && difference.counts.media.isEmpty)
  }

  @Test(
    "a deck against its CrowdAnki folder: equal; ids, scheduling and the decks no card uses are not compared",
    // The third holds schema-18 presets, converted to the schema-11 JSON CrowdAnki keeps.
    arguments: ["anki/genanki_legacy1.apkg", "real/mixed-note-types-legacy2.apkg", "real/zhongwen-latest.apkg"])
  func crowdAnkiFolderIsEqual(file: String) throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let source = Fixtures.path(file)
    let folder = scratch.path(for: "Deck")
    let run = try CommandRun.deckport(["convert", source, folder, "--to", "crowdanki", "--quiet"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    // The package holds Anki's empty Default deck; the folder holds the parent of the deck
    // with cards. Neither is a difference.
    let original = try Self.load(source)
    #expect(original.collection.decks.contains { $0.name == "Default" })
    let difference = try DeckDifference(from: original, to: Self.load(folder))
    #expect(difference.isEmpty, "\(difference.lines.joined(separator: "\n"))")
    #expect(
      difference.notCompared.map(\.aspect) == [
        .identities, .scheduling, .reviews, .deletions, .settings, .tagRegistry, .ankiProperties, .modificationTimes,
        .unusedItems,
      ])
  }

  @Test("one app's store against its JSON record file: equal; app storage holds notes and media only")
  func appStorageIsEqual() throws {
    let difference = try DeckDifference(
      from: Self.load(Fixtures.path("app/flashzilla.store")), to: Self.load(Fixtures.path("app/flashzilla-cards.json")))
    #expect(difference.isEmpty, "\(difference.lines.joined(separator: "\n"))")
    #expect(difference.notCompared.map(\.aspect) == DeckAspect.allCases.filter { $0 != .media })
    #expect(
      difference.notCompared.contains {
        $0.explanation == "scheduling: not compared (app-core-data and app-json hold none)"
      })
  }

  /// App storage holds no GUIDs of Anki's (a record's note gets one derived from its values), so
  /// against the Anki deck it came from every note used to show as removed and added again. Notes
  /// are paired by the text of their non-empty fields instead; a record whose text was edited
  /// still shows as one note removed and one added.
  @Test("an Anki deck against the app records made from it: notes paired by their text")
  func appRecordsPairedByText() throws {
    let scratch = try TemporaryDirectory()
    let package = Fixtures.path("real/french-vocabulary-anki20-legacy1.apkg")
    let records = scratch.path(for: "cards.json")
    let run = try CommandRun.deckport(["convert", package, records, "--to", "app-json"])
    #expect(run.status == 0, "\(run.standardError)")
    let deck = try Self.load(package)
    let unchanged = try DeckDifference(from: deck, to: Self.load(records))
    #expect(unchanged.isEmpty, "\(unchanged.lines.joined(separator: "\n"))")
    #expect(unchanged.notCompared.contains { $0.explanation == "note GUIDs: not compared (app-json holds none)" })
    // The GUIDs do differ: paired by GUID alone, both notes would be removed and added.
    let guids = Set(deck.collection.notes.map(\.guid))
    #expect(try Self.load(records).collection.notes.allSatisfy { !guids.contains($0.guid) })

    let text = try String(contentsOfFile: records, encoding: .utf8)
    try Data(text.replacingOccurrences(of: "le chien me voit", with: "le chien dort").utf8)
      .write(to: URL(fileURLWithPath: records))
    let edited = try DeckDifference(from: deck, to: Self.load(records))
    #expect(edited.notes.changed.isEmpty)
    #expect(
      edited.notes.removed.map { $0.fields.map(\.value) } == [
        ["chien", "le chien", "noun", "le chien me voit", "the dog sees me"]
      ])
    #expect(
      edited.notes.added.map { $0.fields.map(\.value) } == [
        ["chien", "le chien", "noun", "le chien dort", "the dog sees me"]
      ])
  }

  /// Records hold text, not HTML: a field with a picture beside its text, or with markup, comes
  /// back without them, and `&nbsp;` as the character. Such a note is paired by its plain text
  /// and shown as changed in those fields, not as one note removed and another added. A field
  /// that differs only in how it spells characters (`&nbsp;`, `&#x27;`, a bare `&`) is not shown.
  @Test("an Anki deck against app records: a note whose picture or markup did not fit is shown changed")
  func appRecordsPairedByPlainText() throws {
    let difference = try Self.differenceFromRecords(
      of: #"""
        {"format": "deckport-deck", "version": 1,
         "notes": [{"noteType": "Basic", "fields": {"Front": "Argentina", "Back": "Buenos Aires <img src=\"pixel.png\">"}},
                   {"noteType": "Basic", "fields": {"Front": "Chile", "Back": "<b>Santiago</b> & more"}},
                   {"noteType": "Basic", "fields": {"Front": "Peru", "Back": "Lima"}},
                   {"noteType": "Basic", "fields": {"Front": "Space", "Back": "two&nbsp;words"}},
                   {"noteType": "Basic", "fields": {"Front": "Cartoon", "Back": "Tom & Jerry&#x27;s"}},
                   {"noteType": "Basic", "fields": {"Front": "Long", "Back": "A long sentence that goes on and on before the <i>word</i> that matters."}}],
         "media": [{"name": "pixel.png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC"}]}
        """#, as: "app-json")
    #expect(difference.notes.added.isEmpty)
    #expect(difference.notes.removed.isEmpty)
    let changes: [String] = difference.notes.changed.flatMap { note in
      note.fields.map { "\($0.name): \($0.old) -> \($0.new)" }
    }
    #expect(
      changes.sorted() == [
        "Back: <b>Santiago</b> & more -> Santiago &amp; more",
        "Back: A long sentence that goes on and on before the <i>word</i> that matters. -> A long sentence that goes on and on before the word that matters.",
        "Back: Buenos Aires <img src=\"pixel.png\"> -> Buenos Aires ",
      ])
    // A change past what an excerpt shows is shown from a little before it.
    #expect(
      difference.lines.contains(
        #"      Back: "…d on before the <i>word</i> that matters." → "…d on before the word that matters.""#))
    // The picture no record holds is the one media difference.
    #expect(difference.media.removed.map(\.name) == ["pixel.png"])
  }

  /// A field that is a picture alone becomes the record's data (bytes in deckport's SQLite file,
  /// base64 in a JSON file, as `JSONEncoder` writes `Data`), and comes back as a media file named
  /// by its SHA-1: the same bytes under another name, shown as one file renamed.
  @Test(
    "an Anki deck against app records: a picture named by its SHA-1 is shown renamed (in a JSON file, read from its base64)",
    arguments: ["sqlite", "app-json"])
  func appRecordsRenamePictures(format: String) throws {
    let difference = try Self.differenceFromRecords(
      of: #"""
        {"format": "deckport-deck", "version": 1,
         "notes": [{"noteType": "Basic", "fields": {"Front": "dot", "Back": "<img src=\"dot.png\">"}}],
         "media": [{"name": "dot.png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC"}]}
        """#, as: format)
    #expect(difference.notes.added.isEmpty && difference.notes.removed.isEmpty && difference.notes.changed.isEmpty)
    #expect(difference.media.added.isEmpty && difference.media.removed.isEmpty)
    let renamed = try #require(difference.media.changed.first)
    #expect(difference.media.changed.count == 1)
    #expect(renamed.old.name == "dot.png")
    #expect(renamed.new.name == renamed.new.sha1 + ".png")
    #expect(renamed.old.sha1 == renamed.new.sha1)
    #expect(
      difference.lines.contains(
        "  ~ dot.png renamed \(renamed.new.name) (the same 69 bytes, sha1 \(renamed.new.sha1.prefix(10)))"))
  }

  /// A setting's value (JSON text) that changed only past what an excerpt shows is shown from a
  /// little before its first difference, as a field's text is.
  @Test("a long setting changed near its end: both excerpts show the change")
  func longSettingChange() throws {
    let original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    let opening = "A deck of the words a traveller needs first, in the order of a trip: "
    var before = original
    before.collection.decks[0].description = opening + "airport."
    var after = original
    after.collection.decks[0].description = opening + "station."
    let difference = try DeckDifference(from: before, to: after)
    let line = try #require(difference.lines.first { $0.hasPrefix("      description: ") })
    // Values short enough to show whole are shown whole, however late they differ.
    var short = original
    short.collection.decks[0].description = "Words a traveller needs first: one."
    var shortAfter = original
    shortAfter.collection.decks[0].description = "Words a traveller needs first: two."
    let shortLine = try #require(
      try DeckDifference(from: short, to: shortAfter).lines.first { $0.hasPrefix("      description: ") })
    #expect(!shortLine.contains("…"))
    // The values are JSON text: the excerpt starts inside the string, whose closing quote shows.
    #expect(line == #"      description: …rder of a trip: airport." → …rder of a trip: station.""#)
  }

  /// A note whose fields hold no plain text (a picture alone) has nothing to be paired by: a
  /// note of another picture is not taken for it.
  @Test("an Anki deck against app records: notes of a picture alone are not paired by their (empty) text")
  func picturesAloneNotPaired() throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    func deck(_ name: String, picture: String) throws -> String {
      let path = scratch.path(for: name)
      let json = #"""
        {"format": "deckport-deck", "version": 1,
         "notes": [{"noteType": "Basic", "fields": {"Front": "<img src=\"p.png\">", "Back": ""}}],
         "media": [{"name": "p.png", "data": "\#(picture)"}]}
        """#
      try Data(json.utf8).write(to: URL(fileURLWithPath: path))
      return path
    }
    let before = try deck("before.json", picture: "AAEC")
    let after = try deck("after.json", picture: "AwQF")
    let records = scratch.path(for: "cards.sqlite")
    let run = try CommandRun.deckport(["convert", after, records, "--to", "sqlite"])
    #expect(run.status == 0, "\(run.standardError)")
    let difference = try DeckDifference(from: Self.load(before), to: Self.load(records))
    #expect(difference.notes.added.count == 1)
    #expect(difference.notes.removed.count == 1)
  }

  /// App storage names a picture by its SHA-1: a note of a picture alone comes back under
  /// another file name, and is paired by the picture's bytes (seen on a real collection,
  /// `all-decks-v1-legacy.colpkg`, whose two such notes showed removed and added).
  @Test(
    "an Anki deck against app records: notes of a picture alone pair by the picture's bytes, whatever its name",
    arguments: ["sqlite", "app-json"])
  func picturesAlonePairByBytes(format: String) throws {
    let difference = try Self.differenceFromRecords(
      of: #"""
        {"format": "deckport-deck", "version": 1,
         "notes": [{"noteType": "Basic", "fields": {"Front": "<img src=\"dot.png\">", "Back": ""}},
                   {"noteType": "Basic", "fields": {"Front": "word", "Back": ""}}],
         "media": [{"name": "dot.png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC"}]}
        """#, as: format)
    #expect(difference.notes.added.isEmpty && difference.notes.removed.isEmpty, "\(difference.lines)")
    #expect(difference.notes.changed.isEmpty, "\(difference.lines)")
    #expect(difference.media.changed.map(\.old.name) == ["dot.png"])
  }

  @Test("an edited copy: exactly the edits, part by part")
  func editedCopy() throws {
    let original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    var edited = original.collection
    let notes = edited.notes.sorted { $0.guid < $1.guid }
    let changed = try #require(notes.first { $0.fields.first == "chat" })
    let tagged = try #require(notes.first { $0.fields.first?.hasPrefix("Hello") == true })
    let removed = try #require(notes.first { $0.fields.first?.hasPrefix("Plain") == true })
    let changedIndex = try #require(edited.notes.firstIndex { $0.guid == changed.guid })
    // A media file only counts when a note uses it: the deck package holds no others.
    edited.notes[changedIndex].fields[1] = "cat <img src=\"added.png\">"
    let taggedIndex = try #require(edited.notes.firstIndex { $0.guid == tagged.guid })
    edited.notes[taggedIndex].tags.append("reviewed")
    edited.notes.removeAll { $0.guid == removed.guid }
    edited.cards.removeAll { $0.noteID == removed.id }
    // Answer the changed note's first card: learning, one review.
    let cardIndex = try #require(edited.cards.firstIndex { $0.noteID == changed.id && $0.templateOrdinal == 0 })
    let oldScheduling = edited.cards[cardIndex].scheduling
    edited.cards[cardIndex].scheduling.type = .learning
    edited.cards[cardIndex].scheduling.queue = .learning
    edited.cards[cardIndex].scheduling.reviews += 1
    edited.reviews.append(
      Review(
        id: 1_900_000_000_000, cardID: edited.cards[cardIndex].id, ease: 3, interval: -600, lastInterval: 0,
        easeFactor: 0, duration: 3000, kind: .learning))
    edited.media.append(MediaFile(name: "added.png", blob: MediaBlob(data: Data("new bytes".utf8))))
    edited.media.append(MediaFile(name: "unused-by-notes.png", blob: MediaBlob(data: Data("ignored".utf8))))
    let changedMedia = try #require(edited.media.firstIndex { $0.name == "pixel.png" })
    edited.media[changedMedia].blob = MediaBlob(data: Data("other bytes".utf8))
    let verbs = try #require(edited.decks.firstIndex { $0.name == "Languages::French::Verbs" })
    edited.decks[verbs].name = "Languages::French::Verbes"
    let vocab = try #require(edited.noteTypes.firstIndex { $0.name == "Vocab (3 fields)" })
    edited.noteTypes[vocab].fields[2].name = "Sentence"
    edited.noteTypes[vocab].templates[1].answerFormat += "<hr>"
    edited.noteTypes[vocab].css += "\n.card { color: red; }"

    let difference = try DeckDifference(
      from: original, to: LoadedDeck(collection: edited, formatName: "json"), fromName: "a.apkg", toName: "b.json")
    #expect(!difference.isEmpty)
    #expect(difference.notes.added.isEmpty)
    #expect(difference.notes.removed.map(\.guid) == [removed.guid])
    #expect(
      difference.notes.changed.map(\.guid).sorted() == [changed.guid, tagged.guid].sorted())
    let fieldChange = try #require(difference.notes.changed.first { $0.guid == changed.guid })
    #expect(fieldChange.fields.map { [$0.name, $0.old, $0.new] } == [["Back", "cat", "cat <img src=\"added.png\">"]])
    #expect(fieldChange.tagsAdded.isEmpty && fieldChange.tagsRemoved.isEmpty)
    let tagChange = try #require(difference.notes.changed.first { $0.guid == tagged.guid })
    #expect(tagChange.fields.isEmpty && tagChange.tagsAdded == ["reviewed"])
    // The removed note was the only one tagged "marked".
    #expect(difference.tags.added == ["reviewed"] && difference.tags.removed == ["marked"])
    #expect(
      difference.decks.renamed.map { "\($0.old) → \($0.new)" } == [
        "Languages::French::Verbs → Languages::French::Verbes"
      ])
    #expect(difference.decks.added.isEmpty && difference.decks.removed.isEmpty)
    let noteTypeChange = try #require(difference.noteTypes.changed.first)
    #expect(difference.noteTypes.changed.count == 1 && noteTypeChange.name == "Vocab (3 fields)")
    #expect(noteTypeChange.fields.renamed.map { [$0.old, $0.new] } == [["Example", "Sentence"]])
    #expect(
      noteTypeChange.fields.added.isEmpty && noteTypeChange.fields.removed.isEmpty && noteTypeChange.templates.isEmpty)
    #expect(noteTypeChange.templateTextChanged == ["Production"] && noteTypeChange.cssChanged)
    let expectedChanges: [[String]] = [
      ["type", "\(oldScheduling.type.rawValue)", "1"], ["queue", "\(oldScheduling.queue.rawValue)", "1"],
      ["reps", "\(oldScheduling.reviews)", "\(oldScheduling.reviews + 1)"],
    ].filter { $0[1] != $0[2] }
    let cardChange = try #require(difference.scheduling.changed.first)
    #expect(difference.scheduling.changed.count == 1 && cardChange.guid == changed.guid && cardChange.ord == 0)
    #expect(
      cardChange.changes.map { [$0.property, "\($0.old)", "\($0.new)"] } == expectedChanges && cardChange.deck == nil)
    #expect(difference.scheduling.added.isEmpty && difference.scheduling.removed.isEmpty)
    let review = try #require(difference.reviews.added.first)
    #expect(difference.reviews.added.count == 1 && review.id == 1_900_000_000_000)
    #expect(review.guid == changed.guid && review.ord == 0 && review.ease == 3)
    #expect(difference.reviews.removed.isEmpty)
    #expect(difference.media.added.map(\.name) == ["added.png"])
    #expect(difference.media.added.first?.sha1 == SHA1.hex(SHA1.digest(Data("new bytes".utf8))))
    #expect(difference.media.changed.map(\.new.name) == ["pixel.png"] && difference.media.removed.isEmpty)
    let counts = difference.counts
    let table = [counts.notes, counts.noteTypes, counts.decks, counts.tags, counts.cards, counts.reviews, counts.media]
    #expect(
      table.map { [$0.added, $0.removed, $0.changed] }
        == [[0, 1, 2], [0, 0, 1], [0, 0, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [1, 0, 1]])
    let lines = difference.lines
    #expect(lines.prefix(2) == ["from: a.apkg (apkg-latest)", "to:   b.json (json)"])
    #expect(lines.contains("      Back: \"cat\" → \"cat <img src=\"added.png\">\""))
    #expect(lines.contains("  ~ Languages::French::Verbs → Languages::French::Verbes"))
    #expect(lines.contains("      field renamed: Example → Sentence"))
    #expect(lines.contains("  + added.png (9 bytes, sha1 \(SHA1.hex(SHA1.digest(Data("new bytes".utf8))).prefix(10)))"))
    #expect(
      difference.statLines.contains("notes:      0 added, 1 removed, 2 changed")
        && difference.statLines.contains("decks:      0 added, 0 removed, 1 changed"))
  }

  @Test("field text that could drive a terminal is shown escaped and shortened; JSON keeps it exact")
  func hostileAndLongText() throws {
    let original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    var edited = original.collection
    let hostile = "Verbs\u{1B}[2J\u{202E}" + String(repeating: "x", count: 200)
    edited.notes[0].fields[0] = hostile
    let difference = try DeckDifference(from: original, to: LoadedDeck(collection: edited, formatName: "json"))
    let fieldLine = try #require(difference.text.split(separator: "\n").first { $0.contains("Verbs") })
    #expect(!difference.text.unicodeScalars.contains { TerminalText.isEscaped($0) && $0 != "\n" })
    #expect(fieldLine.contains("\"Verbs\\e[2J\\u{202E}xxx") && fieldLine.hasSuffix("…\""))
    #expect(fieldLine.count < 160)
    let json = try difference.jsonText()
    #expect(json.contains("Verbs\\u001b[2J\\u202e" + String(repeating: "x", count: 200)))
  }

  @Test("Anki's import over modification times at both ends of Int64: named, no trap")
  func extremeModificationTimes() throws {
    var original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    original.collection.notes[0].modificationTime = .min
    original.collection.notes[1].modificationTime = .max
    var edited = original.collection
    edited.notes[0].fields[0] += " (edited)"
    edited.notes[1].fields[0] += " (edited)"
    let difference = try DeckDifference(from: original, to: LoadedDeck(collection: edited, formatName: "json"))
    let preview = try #require(difference.ankiImport)
    #expect(preview.notesNotTaken.map(\.guid).sorted() == [edited.notes[0].guid, edited.notes[1].guid].sorted())
    #expect(preview.notesNotTaken.allSatisfy { $0.reason == .notNewer })
    #expect(difference.lines.contains { $0.contains("not modified later (both a day in the year -") })
    #expect(difference.lines.contains { $0.contains("not modified later (both a day in the year 292277026596") })
  }

  @Test("the import preview under each update choice: a later, a same and an earlier time")
  func updateChoices() throws {
    let original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    var edited = original.collection
    for index in 0..<3 { edited.notes[index].fields[0] += " (edited)" }
    edited.notes[0].modificationTime += 60
    edited.notes[2].modificationTime -= 60
    edited.noteTypes[0].css += "\n.card { color: teal; }"
    // A card the collection's note lacks: Anki adds it, to a note it keeps as it is.
    var extraCard = try #require(edited.cards.first { $0.noteID == edited.notes[3].id })
    extraCard.id = (edited.cards.map(\.id).max() ?? 0) + 1
    extraCard.templateOrdinal = 7
    edited.cards.append(extraCard)
    let to = LoadedDeck(collection: edited, formatName: "json")
    let guids = edited.notes.prefix(3).map(\.guid)
    let unchanged = edited.notes.count - 3
    typealias Reason = DeckDifference.NoteNotTaken.Reason
    let expected:
      [(DeckDifference.AnkiUpdateCondition, Int, [String: Reason], DeckDifference.NoteTypeNotTaken.Reason)] = [
        (.ifNewer, 1, [guids[1]: .notNewer, guids[2]: .notNewer], .notNewer),
        (.always, 2, [guids[1]: .sameModificationTime], .sameModificationTime),
        (.never, 0, [guids[0]: .updatesOff, guids[1]: .updatesOff, guids[2]: .updatesOff], .updatesOff),
      ]
    for (condition, updated, notTaken, typeReason) in expected {
      let options = DeckDifference.AnkiImportOptions(updateNotes: condition, updateNoteTypes: condition)
      let difference = try DeckDifference(from: original, to: to, ankiImportOptions: options)
      let preview = try #require(difference.ankiImport)
      #expect(preview.options == options)
      #expect(preview.counts.updated == updated && preview.counts.kept == unchanged + 3 - updated, "\(condition)")
      #expect(
        Dictionary(uniqueKeysWithValues: preview.notesNotTaken.map { ($0.guid, $0.reason) }) == notTaken,
        "\(condition)")
      #expect(preview.cardsAdded == 1 && preview.cardsAddedToKeptNotes == 1, "\(condition)")
      // The restyled note type keeps its time: not taken under any choice, for its own reason.
      #expect(preview.noteTypesNotTaken.map(\.reason) == [typeReason], "\(condition)")
    }
    let always = try DeckDifference(
      from: original, to: to, ankiImportOptions: .init(updateNotes: .always, updateNoteTypes: .never))
    #expect(
      always.lines.contains {
        $0.hasPrefix("Anki's import of the \"to\" deck (updating notes always, note types never) into")
      })
    #expect(always.lines.contains { $0.contains("changed, but modified at the same time (both ") })
    #expect(always.lines.contains { $0.contains("; Anki keeps the collection's, as it updates no note types") })
    #expect(always.lines.contains("  + 1 card of notes the collection has: Anki adds it"))
    #expect(
      always.lines.contains(
        "  ! it goes to a note Anki keeps as the collection has it, whose fields may leave the card empty"))
    let json = try always.jsonText()
    #expect(json.contains("\"updateNotes\" : \"always\"") && json.contains("\"reason\" : \"same-time\""))
  }

  @Test("a note type taken with another sort field: Anki rewrites the collection's notes of it first")
  func sortFieldRewrite() throws {
    let original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    let typeIndex = try #require(
      original.collection.noteTypes.firstIndex { noteType in
        noteType.fields.count >= 2 && original.collection.notes.filter { $0.noteTypeID == noteType.id }.count >= 2
      })
    var edited = original.collection
    let noteType = edited.noteTypes[typeIndex]
    edited.noteTypes[typeIndex].sortFieldIndex = noteType.sortFieldIndex == 0 ? 1 : 0
    edited.noteTypes[typeIndex].modificationTime += 60
    let notesOfType = edited.notes.indices.filter { edited.notes[$0].noteTypeID == noteType.id }
    let editedNote = try #require(notesOfType.first)
    edited.notes[editedNote].fields[0] += " (edited)"
    edited.notes[editedNote].modificationTime += 60
    let to = LoadedDeck(collection: edited, formatName: "json")
    let guid = edited.notes[editedNote].guid
    for merge in [false, true] {
      // Taken: the collection's notes of it are later than the package's, or of another time.
      let ifNewer = try #require(
        DeckDifference(from: original, to: to, ankiImportOptions: .init(mergeNoteTypes: merge)).ankiImport)
      #expect(ifNewer.counts.updated == 0, "merge \(merge)")
      #expect(ifNewer.notesNotTaken.map(\.guid) == [guid] && ifNewer.notesNotTaken[0].reason == .rewrittenBySortField)
      #expect(ifNewer.noteTypesResorted.map(\.id) == [noteType.id])
      #expect(ifNewer.noteTypesResorted.first?.notesRewritten == notesOfType.count)
      let sortField = try #require(ifNewer.noteTypesResorted.first?.sortField)
      #expect(sortField.old == noteType.fields[noteType.sortFieldIndex].name)
      #expect(sortField.new == noteType.fields[edited.noteTypes[typeIndex].sortFieldIndex].name)
      let always = try #require(
        DeckDifference(
          from: original, to: to, ankiImportOptions: .init(updateNotes: .always, mergeNoteTypes: merge)
        ).ankiImport)
      #expect(always.counts.updated == notesOfType.count && always.notesNotTaken.isEmpty, "merge \(merge)")
      // Not taken: nothing is rewritten, and the later note is updated.
      let typesKept = try #require(
        DeckDifference(
          from: original, to: to, ankiImportOptions: .init(updateNoteTypes: .never, mergeNoteTypes: merge)
        ).ankiImport)
      #expect(typesKept.counts.updated == 1 && typesKept.noteTypesResorted.isEmpty, "merge \(merge)")
    }
    let text = try DeckDifference(from: original, to: to).lines
    #expect(text.contains { $0.hasPrefix("  ~ note type '\(noteType.name)'") && $0.contains("new sort field") })
    #expect(text.contains { $0.contains("changed, but Anki takes its note type's new sort field") })
  }

  @Test("notes that share a GUID: each judged against the collection's last note of it; new ones all added")
  func importOfNotesSharingAGUID() throws {
    var original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    let notes = original.collection.notes
    let pair = try #require(
      notes.indices.lazy.compactMap { first in
        notes.indices.first { $0 > first && notes[$0].noteTypeID == notes[first].noteTypeID }.map { (first, $0) }
      }.first)
    original.collection.notes[pair.1].guid = notes[pair.0].guid
    original.collection.notes[pair.1].modificationTime = notes[pair.0].modificationTime + 100
    var edited = original.collection
    // The first note of the GUID, edited later than itself but earlier than the second.
    edited.notes[pair.0].fields[0] += " (edited)"
    edited.notes[pair.0].modificationTime += 50
    // Two new notes of one new GUID.
    var copy = edited.notes[pair.0]
    copy.guid = "a new shared GUID"
    copy.id = (edited.notes.map(\.id).max() ?? 0) + 1
    edited.notes.append(copy)
    copy.id += 1
    edited.notes.append(copy)
    let preview = try #require(
      DeckDifference(from: original, to: LoadedDeck(collection: edited, formatName: "json")).ankiImport)
    #expect(preview.counts.new == 2)
    #expect(preview.counts.updated == 0 && preview.counts.kept == notes.count)
    #expect(preview.notesNotTaken.map(\.guid) == [notes[pair.0].guid])
    #expect(preview.notesNotTaken.first?.modified.old == original.collection.notes[pair.1].modificationTime)
    // Edited later than the second too: updated, and the second, unchanged, kept.
    edited.notes[pair.0].modificationTime += 100
    let later = try #require(
      DeckDifference(from: original, to: LoadedDeck(collection: edited, formatName: "json")).ankiImport)
    #expect(later.counts.updated == 1 && later.notesNotTaken.isEmpty)
  }

  @Test("a changed note shows its modification times, where both formats hold them")
  func modificationTimesOfChangedNotes() throws {
    let original = try Self.load(Fixtures.path("anki/latest_sched.apkg"))
    var edited = original.collection
    edited.notes[2].fields[0] += " (edited)"
    edited.notes[2].modificationTime = 1_795_400_000
    let before = original.collection.notes[2].modificationTime
    let difference = try DeckDifference(from: original, to: LoadedDeck(collection: edited, formatName: "json"))
    let change = try #require(difference.notes.changed.first)
    #expect(change.modified?.old == before && change.modified?.new == 1_795_400_000)
    // 1795400000 is 2026-11-23 02:13:20 UTC (Python's datetime.fromtimestamp).
    #expect(difference.lines.contains { $0.hasSuffix("→ 2026-11-23 02:13:20 UTC") && $0.hasPrefix("      modified: ") })

    let againstCSV = try DeckDifference(
      from: original, to: Self.read(LoadedDeck(collection: edited, formatName: "json"), as: "csv"))
    #expect(againstCSV.notes.changed.allSatisfy { $0.modified == nil })
    #expect(againstCSV.ankiImport == nil)
  }
}
