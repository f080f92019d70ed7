import DeckCore
import Foundation

extension ConversionReport {
  /// What `convert --json` prints for one conversion.
  struct Document: Encodable {
    /// A warning: its code, where, what, and the whole line as the text output shows it.
    struct Warning: Encodable {
      var code: String
      var location: String
      var message: String
      var text: String
    }

    /// Counts of what was (or would be) written.
    struct Counts: Encodable {
      var notes: Int
      var cards: Int
      var reviews: Int
      var media: Int
    }

    /// For app storage: how the records met those the output held.
    struct Records: Encodable {
      var place: String
      var added: Int
      var updated: Int
      var unchanged: Int
      var skipped: Int
      /// Whether the output already held every record, and was left as it was.
      var leftAsItWas: Bool
    }

    var dryRun: Bool
    var input: String
    var inputFormat: String
    var output: String
    var outputFormat: String
    var outputExisted: Bool
    var bytes: Int64?
    var written: Counts
    /// With `--only-deck` or `--only-tag`: what was kept (as `inspect` and `diff` show it).
    var selection: DeckSelection?
    var records: Records?
    var backup: String?
    var warnings: [Warning]
  }

  /// This report as one JSON object (`ReportJSON`): `dryRun`, `input`, `inputFormat`,
  /// `output`, `outputFormat`, `outputExisted`, `bytes` (the size of the file written, or that a
  /// dry run would write; absent for app storage), `written` (notes, cards, reviews, media),
  /// `selection` (with ``ExportChoices/onlyDecks`` or ``ExportChoices/onlyTags``: the `decks`
  /// kept, as the input names them, the `tags` searched for, and the notes, cards, reviews and
  /// media `kept` and that the whole input held, `read`),
  /// `records` (app storage: place, added, updated, unchanged, skipped, and `leftAsItWas`,
  /// true when the output already held every record and was not rewritten), `backup` and
  /// `warnings` (code, location, message, text), every string exact.
  public func jsonText(input: String, output: String) throws -> String {
    try ReportJSON.text(document(input: input, output: output))
  }

  func document(input: String, output: String) -> Document {
    Document(
      dryRun: dryRun, input: input, inputFormat: inputFormat, output: output, outputFormat: outputFormat.rawValue,
      outputExisted: outputExisted, bytes: bytes,
      written: .init(notes: summary.notes, cards: summary.cards, reviews: summary.reviews, media: summary.media),
      selection: selection,
      records: appWrite.map {
        .init(
          place: $0.place, added: $0.merge.added, updated: $0.merge.updated, unchanged: $0.merge.unchanged,
          skipped: $0.merge.skipped, leftAsItWas: $0.leftAsItWas)
      },
      backup: appWrite?.backupPath,
      warnings: warnings.map {
        .init(
          code: $0.category.rawValue, location: $0.location.exactDescription, message: $0.message,
          text: $0.exactDescription)
      })
  }
}

extension BatchConversionItem {
  /// What `convert --out-dir --json` prints for one file.
  struct Document: Encodable {
    var input: String
    var output: String?
    var status: String
    var error: String?
    var report: ConversionReport.Document?
  }

  /// What `convert --out-dir --json` prints for the batch.
  struct BatchDocument: Encodable {
    var files: [Document]
    var converted: Int
    var failed: Int
  }

  /// A batch as one JSON object (`ReportJSON`): `files` (each with `input`, `output`,
  /// `status` — `written`, `would-write` for a dry run, or `failed` — `error` when it failed,
  /// and `report`, the conversion's report as ``ConversionReport/jsonText(input:output:)``
  /// prints it), `converted` and `failed`.
  public static func jsonText(_ items: [BatchConversionItem]) throws -> String {
    let files = items.map { item in
      switch item.result {
      case .success(let report):
        return Document(
          input: item.input, output: item.output, status: report.dryRun ? "would-write" : "written", error: nil,
          report: report.document(input: item.input, output: item.output ?? ""))
      case .failure(let error):
        return Document(
          input: item.input, output: item.output, status: "failed",
          error: "\(error.location.exactDescription): \(error.message)", report: nil)
      }
    }
    let failed = items.filter { !$0.succeeded }.count
    return try ReportJSON.text(BatchDocument(files: files, converted: items.count - failed, failed: failed))
  }
}
