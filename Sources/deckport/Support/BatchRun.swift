import ArgumentParser
import DeckConversion
import DeckCore
import Foundation

/// `convert IN… --out-dir DIR`: runs ``BatchConverter`` with a progress line (files done, and
/// the phase of the conversions under way), shows warnings as they come, and ends with one line
/// per file and a total, or one JSON object with `--json`. Exit status 1 when any file failed.
struct BatchRun {
  var options: ConversionOptions
  var diagnostics: DiagnosticOptions
  var json: Bool

  func run(_ inputs: [String], into folder: String, jobs: Int?) throws {
    let converter = jobs.map { BatchConverter(jobs: $0) } ?? BatchConverter()
    let warningLines = WarningLines(diagnostics)
    let items = try CommandFailure.reporting(verbose: diagnostics.verbose) {
      try ProgressLine.showing(quiet: diagnostics.quiet) { progress in
        var options = self.options
        options.progress = progress.reporter
        // A dry run lists each file's warnings with its line, and --json holds them all.
        let listedLater = json || options.dryRun
        return try converter.convert(inputs: inputs, into: folder, options: options) { _, warning in
          if !listedLater { warningLines.show(warning, write: progress.printError) }
        }
      }
    }.map(\.namingFlags)
    if json {
      StandardOutput.writeJSON(try BatchConversionItem.jsonText(items))
    } else {
      warningLines.finish()
      lines(for: items, folder: folder).forEach(StandardOutput.write)
    }
    if items.contains(where: { !$0.succeeded }) { throw ExitCode.failure }
  }

  /// One line per file (and, for a dry run, its warnings), then the total.
  private func lines(for items: [BatchConversionItem], folder: String) -> [String] {
    var lines: [String] = []
    for item in items {
      switch item.result {
      case .success(let report):
        let verb = options.dryRun ? "would write" : "written"
        let size = options.dryRun ? report.bytes.map { ", \(ConversionProgress.grouped($0)) bytes" } ?? "" : ""
        lines.append(
          "\(verb): \(item.input) -> \(item.output ?? "?") (\(report.inputFormat) to \(report.outputFormat.rawValue)): \(ConversionText.counts(report))\(size)\(ConversionText.warningSuffix(item.warnings.count))"
        )
        if options.dryRun { lines += item.warnings.map { "  \($0)" } }
      case .failure(let error):
        // Warnings were shown as they came; a dry run lists a strict failure's below it.
        lines.append("failed: \(error.shownAfterItsWarnings(listed: options.dryRun ? "below" : "above"))")
        if options.dryRun && error.isStrictFailure { lines += error.diagnostics.map { "  \($0)" } }
      }
    }
    let failed = items.filter { !$0.succeeded }.count
    let done = items.count - failed
    let failures = failed > 0 ? "; \(failed) failed" : ""
    lines.append(
      options.dryRun
        ? "Dry run: \(done) of \(items.count) files would be written into \(folder)\(failures); nothing was written"
        : "Converted \(done) of \(items.count) files into \(folder)\(failures)")
    return lines
  }
}
