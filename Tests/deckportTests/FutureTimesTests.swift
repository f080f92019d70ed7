import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// Notes modified in the future (user complaints 7 and 23 in `shared/docs/peers.md`): what Anki
/// does with them, judged by the real backend, and the warning deckport gives when it writes
/// them into a package.
@Suite("Notes modified in the future, judged by the real Anki backend", .enabled(if: PythonScript.hasAnkiBackend))
struct FutureTimesTests {
  /// 2100-01-01, 00:00 UTC.
  static let year2100: Int64 = 4_102_444_800

  /// The real Anki package's deck, its notes modified at `time`, their first fields ending in
  /// `suffix`.
  static func deck(modified time: Int64, suffix: String = "") throws -> LoadedDeck {
    var deck = try DeckLoader().load(path: Fixtures.path("anki/latest_sched.apkg"))
    for index in deck.collection.notes.indices {
      deck.collection.notes[index].modificationTime = time
      deck.collection.notes[index].fields[0] += suffix
    }
    return deck
  }

  static func write(_ deck: LoadedDeck, to path: String, strict: Bool = false) async throws -> [Diagnostic] {
    var options = ConversionOptions(to: .apkg)
    options.strict = strict
    return try await DeckConverter().write(deck, to: URL(filePath: path), options: options).warnings
  }

  @Test(
    "Anki updates no note from a later export once it has a copy modified in the future; deckport says so when it writes one, and --strict refuses"
  )
  func futureModificationTimes() async throws {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let now = Int64(Date().timeIntervalSince1970)
    let future = scratch.path(for: "future.apkg")
    let warnings = try await Self.write(try Self.deck(modified: Self.year2100), to: future)
    let futureWarnings = warnings.filter { $0.category == "future-time" }
    #expect(futureWarnings.count == 1)
    #expect(
      futureWarnings.first?.message.hasPrefix("9 notes were last modified in the future (this one on 2100-01-01)")
        == true,
      "\(futureWarnings)")
    let present = scratch.path(for: "present.apkg")
    #expect(
      try await Self.write(try Self.deck(modified: now - 3_600), to: present).allSatisfy {
        $0.category != "future-time"
      })
    let edited = scratch.path(for: "edited.apkg")
    _ = try await Self.write(try Self.deck(modified: now - 60, suffix: " (edited)"), to: edited)

    // What the warning says: after the package modified in the future, the edited export updates
    // nothing; after the one modified an hour ago, it updates every note.
    let afterFuture = try DeckBuilderAnkiTests.judge([future, edited])
    #expect(afterFuture.imports.map(\.new) == [9, 0])
    #expect(afterFuture.imports.map(\.updated) == [0, 0])
    #expect(afterFuture.view.notes.allSatisfy { !($0.fields.first ?? "").hasSuffix(" (edited)") })
    let afterPresent = try DeckBuilderAnkiTests.judge([present, edited])
    #expect(afterPresent.imports.map(\.updated) == [0, 9])

    let refused = scratch.path(for: "refused.apkg")
    await #expect(throws: DeckError.self) {
      _ = try await Self.write(try Self.deck(modified: Self.year2100), to: refused, strict: true)
    }
    #expect(!FileManager.default.fileExists(atPath: refused))
  }
}
