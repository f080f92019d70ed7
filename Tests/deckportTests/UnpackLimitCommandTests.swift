import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// `--max-expansion` and `--max-unpacked`: a package over the limits ends with one line naming
/// the limit and how to raise it, exit status 1 and nothing written; raised limits let it through.
@Suite("deckport convert: unpack limits")
struct UnpackLimitCommandTests {
  /// A legacy package with a 64 MiB media file of zeros, deflated to about 64 KB.
  static func inflatingPackage(in scratch: TemporaryDirectory) throws -> String {
    let path = scratch.path(for: "inflating.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/legacy2_sched.apkg"), to: path,
      applying: .init(replace: ["0": Data(count: 64 << 20)], deflate: ["0"]))
    return path
  }

  @Test("over --max-unpacked: one line with the limit and the options, exit 1, nothing written")
  func refused() throws {
    let scratch = try TemporaryDirectory()
    let input = try Self.inflatingPackage(in: scratch)
    let output = scratch.path(for: "out.apkg")
    let run = try CommandRun.deckport(["convert", input, output, "--max-unpacked", "16M"])
    #expect(run.status == 1)
    #expect(
      run.standardError
        == "deckport: error: \(input): its 6 media files and collection declare 67 MB unpacked, more than this package may unpack to (17 MB in all); if the deck is genuine, raise the limit with --max-expansion or --max-unpacked\n"
    )
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["inflating.apkg"])
  }

  @Test("--verbose adds the kind, each part of the place and the exact figures, one per line")
  func verboseDetail() throws {
    let scratch = try TemporaryDirectory()
    let input = try Self.inflatingPackage(in: scratch)
    let run = try CommandRun.deckport(["inspect", input, "--max-unpacked", "16M", "--verbose"])
    #expect(run.status == 1)
    let lines = run.standardError.split(separator: "\n").map(String.init)
    #expect(lines.count == 6, "stderr: \(run.standardError)")
    #expect(
      lines.first?.hasPrefix("deckport: error: \(input): its 6 media files and collection declare 67 MB unpacked")
        == true)
    #expect(
      Array(lines.dropFirst()) == [
        "deckport:   kind: limitExceeded (unpacking would pass a safety limit on size)",
        "deckport:   file: \(input)",
        "deckport:   declared: 67261118 bytes",
        "deckport:   package: \(try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int ?? -1) bytes; may unpack to 16777216 bytes",
        "deckport:   limits: ratio 100, allowance 1073741824 bytes, total 16777216 bytes, collection 16777216 bytes, media file 16777216 bytes",
      ], "stderr: \(run.standardError)")
  }

  @Test("--verbose on a bad JSON document names the line, the column and the path on lines of their own")
  func verboseJSON() throws {
    let scratch = try TemporaryDirectory()
    let input = scratch.path(for: "bad.json")
    try Data("{\"format\": \"deckport-deck\",\n  \"version\": [1,\n}".utf8).write(to: URL(fileURLWithPath: input))
    let run = try CommandRun.deckport(["inspect", input, "--verbose"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("\ndeckport:   kind: "), "stderr: \(run.standardError)")
    #expect(run.standardError.contains("\ndeckport:   line: 3\n"), "stderr: \(run.standardError)")
    #expect(run.standardError.contains("\ndeckport:   column: 1\n"), "stderr: \(run.standardError)")
    // Without --verbose: one line.
    let plain = try CommandRun.deckport(["inspect", input])
    #expect(plain.standardError.split(separator: "\n").count == 1, "stderr: \(plain.standardError)")
  }

  @Test("the default limits let a genuine large expansion through; so does a raised ratio")
  func allowed() throws {
    let scratch = try TemporaryDirectory()
    let input = try Self.inflatingPackage(in: scratch)
    let run = try CommandRun.deckport(["convert", input, scratch.path(for: "out.apkg"), "--to", "apkg-modern"])
    #expect(run.status == 0, "stderr: \(run.standardError)")
    let inspect = try CommandRun.deckport(["inspect", input, "--max-expansion", "1000", "--max-unpacked", "1G"])
    #expect(inspect.status == 0, "stderr: \(inspect.standardError)")
  }

  @Test(
    "bad limit values are usage errors (exit 64)",
    arguments: [
      ["--max-unpacked", "12Q"], ["--max-unpacked", "0"], ["--max-expansion", "0"], ["--max-unpacked", "99999999T"],
    ])
  func badValues(_ option: [String]) throws {
    let scratch = try TemporaryDirectory()
    let run = try CommandRun.deckport(
      ["convert", Fixtures.path("anki/legacy2_sched.apkg"), scratch.path(for: "out.json")] + option)
    #expect(run.status == 64, "stderr: \(run.standardError)")
    #expect(run.standardError.contains(option[0]))
  }
}
