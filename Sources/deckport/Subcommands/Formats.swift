import ArgumentParser
import DeckConversion

extension Deckport {
  /// `deckport formats`: every format, with its extensions, whether it is read and written, and
  /// what it cannot hold.
  struct Formats: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the formats deckport reads and writes.",
      discussion: """
        For each format: the name --from and --to take, whether deckport reads and writes it, \
        the file extensions that name it (the same list convert and inspect detect formats \
        from), what it is, and what a deck loses in it (each reported as a warning when a \
        conversion drops it). With --json, one JSON object with the key formats, a list of \
        objects with the keys name, summary, extensions, reads, writes, cannotHold, holds (the \
        parts of a deck the format holds: tags, noteTypes, scheduling, media and the others), holdsInPart \
        (a part held only in part, with what is held of it), layout (file, folder, \
        fileInPlace or existingFile) and textSyntax (json or delimited, for text formats).
        """)

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
      if json {
        StandardOutput.writeJSON(try FormatArguments.registry.jsonText())
        return
      }
      for format in FormatArguments.registry.descriptions {
        let abilities = [format.reads ? "read" : nil, format.writes ? "write" : nil].compactMap { $0 }.joined(
          separator: ", ")
        let extensions =
          format.extensions.isEmpty
          ? "(--to \(format.name))" : format.extensions.map { ".\($0)" }.joined(separator: " ")
        StandardOutput.write(
          "\(format.name.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)) \(abilities.padding(toLength: 12, withPad: " ", startingAt: 0)) \(extensions)"
        )
        StandardOutput.write("    \(format.summary)")
        if !format.cannotHold.isEmpty {
          StandardOutput.write("    cannot hold: \(format.cannotHold.joined(separator: "; "))")
        }
      }
    }
  }
}
