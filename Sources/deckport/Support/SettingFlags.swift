import DeckConversion
import DeckCore

/// The options of `deckport` that stand for the library's settings, so that an error or a
/// warning that says what to change names the option to give.
extension DeckSetting {
  /// The option that sets this setting: `--key`, `--columns`, `--force`.
  var flag: String {
    switch self {
    case .replaceExisting: "--force"
    case .keepBackup: "--backup"
    case .strict: "--strict"
    case .recordKey: "--key"
    case .recordProfile: "--profile"
    case .recordEntity: "--entity"
    case .plistStyle: "--plist-style"
    case .existingRecords: "--existing"
    case .csvColumns: "--columns"
    case .csvNoteType: "--note-type"
    case .csvSeparator: "--separator"
    case .csvHeaderRow: "--header"
    case .csvHTML: "--html"
    case .duplicateGUIDs: "--duplicate-guids"
    case .inputFormat: "--from"
    case .jsonDates: "--json-dates"
    }
  }
}

extension DeckError {
  /// The error as the command shows it: each setting its message names written as its option.
  var namingFlags: DeckError { naming(\.flag) }
}

extension Diagnostic {
  /// The warning as the command shows it: each setting its message names written as its option.
  var namingFlags: Diagnostic { naming(\.flag) }
}

extension BatchConversionItem {
  /// The item as the command shows it: its error and warnings naming options.
  var namingFlags: BatchConversionItem {
    var copy = self
    copy.result = result.map { report in
      var named = report
      named.warnings = report.warnings.map(\.namingFlags)
      return named
    }.mapError(\.namingFlags)
    copy.warnings = warnings.map(\.namingFlags)
    return copy
  }
}
