import DeckIO
import DeckTestSupport
import Foundation
import Testing

@Suite("deckport convert IN OUT --dry-run")
struct DryRunCommandTests {
  static let package = Fixtures.path("anki/latest_sched.apkg")

  @Test("a package to CSV: the plan and every loss, nothing written")
  func planAndLosses() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.csv")
    let run = try CommandRun.deckport(["convert", Self.package, output, "--dry-run"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardError.isEmpty)
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines.first?.hasPrefix(
        "Dry run: would write \(output) (csv) from apkg-latest: 9 notes, 15 cards, 0 reviews, 0 media files, ") == true)
    #expect(lines.first?.hasSuffix(" bytes; nothing was written") == true)
    #expect(lines[1] == "What would be changed or left out (7 warnings):")
    #expect(
      lines.dropFirst(2).map { $0.components(separatedBy: "warning: [").last?.components(separatedBy: "]").first } == [
        "csv-scheduling", "csv-reviews", "anki-properties-dropped", "csv-media", "csv-note-type", "csv-scheduling",
        "modification-times-dropped",
      ])
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)

    // The real conversion reports the same losses and writes as many bytes as the plan said.
    let real = try CommandRun.deckport(["convert", Self.package, output, "--verbose"])
    #expect(real.status == 0)
    let size = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int
    #expect(lines.first?.contains(", \(size.map { Self.grouped($0) } ?? "?") bytes;") == true)
    #expect(real.standardError.components(separatedBy: "warning: [").count - 1 == 7)
  }

  static func grouped(_ number: Int) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.groupingSeparator = ","
    formatter.usesGroupingSeparator = true
    return formatter.string(from: NSNumber(value: number)) ?? "\(number)"
  }

  @Test("an existing output is left as it is, and the plan says the real run needs --force")
  func existingOutput() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.apkg")
    try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
    let run = try CommandRun.deckport(["convert", Self.package, output, "--dry-run"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardOutput.contains("\n\(output) exists: converting for real needs --force to replace it\n"))
    #expect(run.standardOutput.hasSuffix("Nothing would be changed or left out (no warnings).\n"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("precious".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["deck.apkg"])
  }

  @Test("--json: one object with the counts, the size and every warning")
  func json() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.csv")
    let run = try CommandRun.deckport(["convert", Self.package, output, "--dry-run", "--json"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    #expect(run.standardError.isEmpty)
    let document = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
    #expect(document?["dryRun"] as? Bool == true)
    #expect(document?["inputFormat"] as? String == "apkg-latest")
    #expect(document?["outputFormat"] as? String == "csv")
    #expect(document?["output"] as? String == output)
    #expect((document?["bytes"] as? Int ?? 0) > 0)
    #expect((document?["written"] as? [String: Any])?["notes"] as? Int == 9)
    let warnings = document?["warnings"] as? [[String: Any]] ?? []
    #expect(
      warnings.map { $0["code"] as? String } == [
        "csv-scheduling", "csv-reviews", "anki-properties-dropped", "csv-media", "csv-note-type", "csv-scheduling",
        "modification-times-dropped",
      ])
    #expect(warnings.allSatisfy { ($0["location"] as? String) == output })
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test("--strict with a dry run fails on the losses, as the real run would")
  func strict() throws {
    let scratch = try TemporaryDirectory()
    let run = try CommandRun.deckport(["convert", Self.package, scratch.path(for: "deck.csv"), "--dry-run", "--strict"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("--strict: 7 warnings (listed above); nothing was written"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
  }

  @Test("a real conversion with --json reports what was written")
  func jsonForRealRun() throws {
    let scratch = try TemporaryDirectory()
    let output = scratch.path(for: "deck.json")
    let run = try CommandRun.deckport(["convert", Self.package, output, "--json"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let document = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
    #expect(document?["dryRun"] as? Bool == false)
    let size = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int
    #expect(document?["bytes"] as? Int == size)
    #expect((document?["warnings"] as? [Any])?.isEmpty == true)
  }
}

@Suite("deckport formats")
struct FormatsCommandTests {
  @Test("--json lists every format --from and --to take, with extensions, abilities and losses")
  func json() throws {
    let run = try CommandRun.deckport(["formats", "--json"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let document = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
    let formats = document?["formats"] as? [[String: Any]] ?? []
    let names = formats.compactMap { $0["name"] as? String }
    #expect(
      names == [
        "apkg", "apkg-modern", "colpkg", "colpkg-modern", "json", "json-dir", "crowdanki", "csv", "tsv", "cards",
        "plist", "app-json", "sqlite", "core-data",
      ])
    let csv = formats.first { $0["name"] as? String == "csv" }
    #expect(csv?["reads"] as? Bool == true)
    #expect(csv?["writes"] as? Bool == true)
    #expect(csv?["extensions"] as? [String] == ["csv"])
    #expect((csv?["cannotHold"] as? [String])?.contains("scheduling") == true)
  }

  @Test("each listed extension is the one convert detects: a file of that name is written in that format")
  func extensionsAreDetection() throws {
    let run = try CommandRun.deckport(["formats", "--json"])
    let document = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
    let scratch = try TemporaryDirectory()
    for format in document?["formats"] as? [[String: Any]] ?? [] {
      guard let name = format["name"] as? String, format["reads"] as? Bool == true,
        ["apkg", "colpkg", "json", "csv", "tsv"].contains(name)
      else { continue }
      for fileExtension in format["extensions"] as? [String] ?? [] {
        let output = scratch.path(for: "deck.\(fileExtension)")
        let converted = try CommandRun.deckport(["convert", Fixtures.path("anki/legacy1.apkg"), output, "--force"])
        #expect(converted.status == 0, "stderr: \(converted.standardError)")
        #expect(converted.standardOutput.hasPrefix("Wrote \(output) (\(name)) from"), "\(fileExtension)")
        let inspected = try CommandRun.deckport(["inspect", output, "--json"])
        let summary = try JSONSerialization.jsonObject(with: Data(inspected.standardOutput.utf8)) as? [String: Any]
        #expect((summary?["format"] as? String)?.hasPrefix(name) == true, "\(fileExtension)")
      }
    }
  }

  @Test("the text lists every format on its own line")
  func text() throws {
    let run = try CommandRun.deckport(["formats"])
    #expect(run.status == 0)
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "apkg           read, write  .apkg")
    #expect(lines.contains("tsv            read, write  .tsv .txt"))
    #expect(lines.contains("apkg-modern    write        (--to apkg-modern)"))
    #expect(lines.filter { !$0.hasPrefix(" ") }.count == 14)
    #expect(lines.contains("cards          write        (--to cards)"))
    #expect(lines.contains("crowdanki      read, write  (--to crowdanki)"))
    #expect(lines.contains("json-dir       read, write  (--to json-dir)"))
  }
}

@Suite("deckport --version")
struct VersionTests {
  @Test("prints the version and the commit the binary was built from")
  func version() throws {
    let run = try CommandRun.deckport(["--version"])
    #expect(run.status == 0)
    #expect(
      run.standardOutput.range(
        of: #"^0\.1\.0 \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)\n$"#, options: .regularExpression) != nil)
    // scripts/setup.sh records the commit it built; a binary built after it carries it.
    let header = Fixtures.path("../Sources/CBuildInfo/BuildCommit.h")
    if let recorded = try? String(contentsOfFile: header, encoding: .utf8),
      let commit = recorded.split(separator: "\"").dropFirst().first
    {
      #expect(run.standardOutput.contains("(commit \(commit))"))
    }
  }
}
