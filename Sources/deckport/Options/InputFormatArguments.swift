import ArgumentParser
import DeckCore

/// The `--from` option of every command that reads decks (`convert`, `inspect`, `diff`): the
/// input format, when a file's name and content do not tell. It is declared once, as a
/// repeatable option; `Decks` says how many times the command takes it, and the help and the
/// usage error (exit status 64) say so.
struct InputFormatArguments<Decks: InputDeckCount>: ParsableArguments {
  @Option(
    name: .customLong("from"),
    help: ArgumentHelp(
      "The input format (\(FormatArguments.inputList)), when the name and content do not tell; give it \(Decks.formatCountText).",
      valueName: "format"),
    transform: FormatArguments.input)
  var formats: [FormatName] = []

  func validate() throws {
    if formats.count > Decks.maximumFormats {
      throw ValidationError("--from is given \(formats.count) times; give it \(Decks.formatCountText)")
    }
  }
}

/// How many decks a command reads, and so how many times it takes `--from`.
protocol InputDeckCount {
  /// The most `--from` values the command takes.
  static var maximumFormats: Int { get }
  /// How many times `--from` may be given, as the help and the usage error say it: "once".
  static var formatCountText: String { get }
}

/// A command that reads one deck (`convert`, `inspect`): `--from` at most once.
enum OneInputDeck: InputDeckCount {
  static let maximumFormats = 1
  static let formatCountText = "once"
}

/// A command that reads two decks, A and B (`diff`): `--from` once for both, or twice, for A
/// and then B.
enum TwoInputDecks: InputDeckCount {
  static let maximumFormats = 2
  static let formatCountText = "once (both decks) or twice (A, then B)"
}

extension InputFormatArguments where Decks == OneInputDeck {
  /// The format named, if any.
  var format: FormatName? { formats.first }
}

extension InputFormatArguments where Decks == TwoInputDecks {
  /// The formats of A and of B: the one named for both, the two named in turn, or none.
  var formatsOfAAndB: (a: FormatName?, b: FormatName?) { (formats.first, formats.last) }
}
