import DeckIO
import DeckTestSupport
import Foundation
import Testing

/// The refusal of a safety limit, as a user sees it: `deckport convert input <scratch>/<output>`
/// (with `extra` options) exits with status 1, prints one error line that starts with
/// `deckport: error: <starting>` and ends with `ending`, and leaves `scratch` as it was (no
/// output, no temporary file).
func expectConversionRefused(
  _ input: String, in scratch: TemporaryDirectory, output: String, extra: [String] = [], starting: String,
  ending: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
  let before = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
  let run = try CommandRun.deckport(["convert", input, scratch.path(for: output)] + extra)
  #expect(run.status == 1, "stderr: \(run.standardError)", sourceLocation: sourceLocation)
  #expect(
    run.standardError.hasPrefix("deckport: error: " + starting), "stderr: \(run.standardError)",
    sourceLocation: sourceLocation)
  #expect(run.standardError.hasSuffix(ending + "\n"), "stderr: \(run.standardError)", sourceLocation: sourceLocation)
  #expect(
    run.standardError.split(separator: "\n").count == 1, "stderr: \(run.standardError)", sourceLocation: sourceLocation)
  #expect(
    try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == before, sourceLocation: sourceLocation
  )
}
