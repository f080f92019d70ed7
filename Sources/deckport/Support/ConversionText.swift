import DeckConversion
import DeckCore

/// The lines `convert` prints about a conversion: what was written, or what a dry run would
/// write and lose. (Each line reaches the terminal through ``StandardOutput`` or
/// ``StandardError``, escaped.)
enum ConversionText {
  /// After a conversion: the backup kept, what was written, and for app storage how the records
  /// met those the file held.
  static func written(_ report: ConversionReport, output: String, warningCount: Int) -> [String] {
    var lines: [String] = []
    if let backupPath = report.appWrite?.backupPath { lines.append("Kept the old \(output) as \(backupPath)") }
    if let selection = report.selection { lines.append(selection.line) }
    if report.appWrite?.leftAsItWas == true {
      lines.append(
        "Left \(output) (\(report.outputFormat.rawValue)) as it was: it already holds every record of \(report.inputFormat) (\(counts(report)))\(warningSuffix(warningCount))"
      )
    } else {
      lines.append(
        "Wrote \(output) (\(report.outputFormat.rawValue)) from \(report.inputFormat): \(counts(report))\(warningSuffix(warningCount))"
      )
    }
    if let written = report.appWrite { lines.append("Records in \(output) (\(written.place)): \(written.merge)") }
    return lines
  }

  /// After a dry run: what would be written, whether the output exists, and every warning.
  static func plan(_ report: ConversionReport, output: String, warnings: [Diagnostic], replacing: Bool) -> [String] {
    var lines: [String] = []
    if let selection = report.selection { lines.append(selection.line) }
    if let written = report.appWrite {
      let records = "\(CountedNoun.phrase(written.recordCount, "record"))"
      lines.append(
        written.leftAsItWas
          ? "Dry run: would leave \(output) (\(written.kind.displayName), \(written.place)) as it is: it already holds every record of \(report.inputFormat) (\(written.merge)); nothing was written"
          : "Dry run: would write \(records) to \(output) (\(written.kind.displayName), \(written.place)) from \(report.inputFormat): \(written.merge); verified in a scratch copy; nothing was written"
      )
    } else {
      let size = report.bytes.map { ", \(ConversionProgress.grouped($0)) bytes" } ?? ""
      lines.append(
        "Dry run: would write \(output) (\(report.outputFormat.rawValue)) from \(report.inputFormat): \(counts(report))\(size); nothing was written"
      )
      if report.outputExisted && !replacing {
        lines.append("\(output) exists: converting for real needs --force to replace it")
      }
    }
    if warnings.isEmpty {
      lines.append("Nothing would be changed or left out (no warnings).")
    } else {
      lines.append("What would be changed or left out (\(CountedNoun.phrase(warnings.count, "warning"))):")
      lines += warnings.map { "  \($0)" }
    }
    return lines
  }

  /// `9 notes, 15 cards, 8 reviews, 1 media file` (and `, 4 deletion records` when there are any).
  static func counts(_ report: ConversionReport) -> String {
    let s = report.summary
    let deletions = s.deletions > 0 ? ", \(CountedNoun.phrase(s.deletions, "deletion record"))" : ""
    let counts = [(s.notes, "note"), (s.cards, "card"), (s.reviews, "review"), (s.media, "media file")]
    return counts.map { CountedNoun.phrase($0.0, $0.1) }.joined(separator: ", ") + deletions
  }

  /// `, 2 warnings`, or nothing.
  static func warningSuffix(_ count: Int) -> String {
    count > 0 ? ", \(CountedNoun.phrase(count, "warning"))" : ""
  }
}
