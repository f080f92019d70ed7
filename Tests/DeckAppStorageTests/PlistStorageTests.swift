import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import PlistCodec
import Testing

@testable import DeckAppStorage

@Suite("Plist storage: records under a key")
struct PlistStorageTests {
  @Test(
    "plistlib's binary and XML plists: the cards under 'Cards' as JSON data",
    arguments: ["flashzilla-binary.plist", "flashzilla-xml.plist"])
  func pythonWritten(name: String) throws {
    let content = try AppStorageReader().read(path: AppFixtures.path(name), options: AppStorageOptions(key: "Cards"))
    #expect(content.kind == .plist)
    #expect(content.records.records == AppFixtures.flashzillaRecords)
    #expect(content.records.profile == .flashzilla)
    #expect(content.place == "key 'Cards' (JSON data in \(name.contains("xml") ? "an XML plist" : "a binary plist"))")
  }

  @Test("the one key holding records is found without --key; a native array of dictionaries reads the same")
  func findsKey() throws {
    let binary = try AppStorageReader().read(path: AppFixtures.path("flashzilla-binary.plist"))
    #expect(binary.records.name == "Cards")
    let native = try AppStorageReader().read(path: AppFixtures.path("flashzilla-native.plist"))
    #expect(native.place == "key 'Cards' (an array of dictionaries in a binary plist)")
    #expect(native.records.records == AppFixtures.flashzillaRecords)
  }

  @Test("Foundation-written plists: JSON data, PropertyListEncoder data, a JSON string, a native array")
  func foundationWritten() throws {
    struct Card: Codable {
      var id: UUID
      var prompt: String
      var answer: String
    }
    let cards = AppFixtures.flashzillaCards.map { card in
      Card(id: UUID(uuidString: card[0].1) ?? UUID(), prompt: card[1].1, answer: card[2].1)
    }
    let json = try JSONEncoder().encode(cards)
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    let nested = try encoder.encode(cards)
    let nativeArray: [[String: Any]] = cards.map { ["id": $0.id.uuidString, "prompt": $0.prompt, "answer": $0.answer] }
    let domain: [String: Any] = [
      "jsonData": json, "plistData": nested, "jsonString": String(decoding: json, as: UTF8.self), "native": nativeArray,
      "other": 1,
    ]
    let scratch = try TemporaryDirectory()
    for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
      let path = scratch.path(for: "domain-\(format.rawValue).plist")
      try PropertyListSerialization.data(fromPropertyList: domain, format: format, options: 0).write(
        to: URL(fileURLWithPath: path))
      for (key, form) in [
        ("jsonData", "JSON data"), ("plistData", "binary plist data"), ("jsonString", "a JSON string"),
        ("native", "an array of dictionaries"),
      ] {
        let content = try AppStorageReader().read(path: path, options: AppStorageOptions(key: key))
        #expect(content.place.hasPrefix("key '\(key)' (\(form)"))
        // Dictionary order from Foundation is not the app's, so compare key by key.
        #expect(content.records.records.count == 3)
        for (record, expected) in zip(content.records.records, AppFixtures.flashzillaRecords) {
          for field in expected.fields { #expect(record[field.key] == field.value, "\(key) \(field.key)") }
        }
      }
    }
  }

  @Test(
    "writing into an existing binary plist: only the key changes, the file stays binary, the other keys keep their values, types and order"
  )
  func replaceInBinary() throws {
    let scratch = try TemporaryDirectory()
    let path = try AppFixtures.copy("flashzilla-binary.plist", into: scratch)
    let before = try PlistDocument(data: Data(contentsOf: URL(fileURLWithPath: path)))
    var records = try AppStorageReader().read(path: path).records
    records.records = [records.records[0]]
    records.records[0]["answer"] = .string("twelve")
    let report = try AppStorageWriter().write(records, to: path, options: AppWriteOptions(existing: .replace))
    #expect(report.place == "key 'Cards' (JSON data in a binary plist)")
    #expect(report.merge == AppRecordMergeSummary(updated: 1))
    let after = try PlistDocument(data: Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(after.format == .binary)
    guard case .dictionary(let old) = before.root, case .dictionary(let new) = after.root else {
      Issue.record("not dictionaries")
      return
    }
    #expect(old.keys == new.keys)
    for entry in old.entries where entry.key != "Cards" { #expect(new[entry.key] == entry.value, "key \(entry.key)") }
    var expected = AppFixtures.flashzillaRecords
    expected[0]["answer"] = .string("twelve")
    #expect(try AppStorageReader().read(path: path).records.records == expected)
    // plistlib agrees on the other keys.
    let check = try AppFixtures.python(
      "import plistlib,sys; d=plistlib.load(open(sys.argv[1],'rb')); print(d['largeUnsigned'], d['launchCount'], d['ratio'], d['hasSeenOnboarding'] is True, d['SULastCheckTime'].isoformat(), d['ünïcødé-キー'])",
      [path])
    #expect(check == "18446744073709551615 42 0.25 True 2023-03-08T20:26:40 {'nested': [1, {'deep': b'\\x00\\x01'}]}\n")
  }

  @Test("writing into an existing XML plist edits it in place: every byte outside the key is kept")
  func replaceInXML() throws {
    let scratch = try TemporaryDirectory()
    let path = try AppFixtures.copy("flashzilla-xml.plist", into: scratch)
    let original = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    var records = try AppStorageReader().read(path: path).records
    records.records.append(AppRecord([("id", .uuid(UUID())), ("prompt", .string("new")), ("answer", .string("card"))]))
    _ = try AppStorageWriter().write(records, to: path, options: AppWriteOptions(existing: .replace))
    let edited = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    let start = try #require(original.range(of: "<key>Cards</key>"))
    let end = try #require(original.range(of: "</data>", range: start.upperBound..<original.endIndex))
    #expect(edited.hasPrefix(String(original[..<start.upperBound])))
    #expect(edited.hasSuffix(String(original[end.upperBound...])))
    #expect(try AppStorageReader().read(path: path).records.records.count == 4)
  }

  @Test("a new plist: JSON data by default, an array of dictionaries with --plist-style native")
  func newPlist() throws {
    let scratch = try TemporaryDirectory()
    let records = AppRecords(name: "Cards", records: AppFixtures.flashzillaRecords, profile: .flashzilla)
    for style in PlistRecordStyle.allCases {
      let path = scratch.path(for: "new-\(style.rawValue).plist")
      let report = try AppStorageWriter().write(
        records, to: path, options: AppWriteOptions(storage: AppStorageOptions(plistStyle: style)))
      #expect(report.created)
      #expect(
        report.place
          == (style == .json
            ? "key 'Cards' (JSON data in a binary plist)" : "key 'Cards' (an array of dictionaries in a binary plist)"))
      let raw = try PlistDocument(data: Data(contentsOf: URL(fileURLWithPath: path)))
      guard case .dictionary(let root) = raw.root else {
        Issue.record("not a dictionary")
        continue
      }
      if style == .json {
        let json = try #require(root["Cards"])
        #expect(
          json
            == .data(
              Data(
                #"[{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","prompt":"Zwölf? 日本 🃏","answer":"12"},{"id":"0B6B5A8E-2C1D-4E6F-9A7B-3C2D1E0F9A8B","prompt":"a\/b \"quoted\"\nsecond line","answer":"<b>not bold<\/b> & more"},{"id":"7C1EA5A6-0D9B-4B74-A530-13251F4943D8","prompt":"Capital of France?","answer":"Paris"}]"#
                  .utf8)))
      }
      #expect(try AppStorageReader().read(path: path).records.records == AppFixtures.flashzillaRecords)
    }
  }

  @Test("a null cannot go into a plist of dictionaries: refused, naming the record and key, nothing written")
  func nullInNative() throws {
    let scratch = try TemporaryDirectory()
    let path = scratch.path(for: "out.plist")
    let records = AppRecords(name: "Cards", records: [AppRecord([("a", .integer(1))]), AppRecord([("a", .null)])])
    #expect {
      try AppStorageWriter().write(
        records, to: path, options: AppWriteOptions(storage: AppStorageOptions(plistStyle: .native)))
    } throws: { error in
      (error as? DeckError)?.description
        == "\(path): key 'Cards': record 2, key 'a': a plist cannot hold null; write the records as JSON data (AppStorageOptions.plistStyle json) or to another kind of storage"
    }
    #expect(try FolderContents.names(in: scratch.path).isEmpty)
  }
}
