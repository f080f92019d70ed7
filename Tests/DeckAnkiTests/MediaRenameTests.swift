import DeckCore
import DeckIO
import DeckTestSupport
import Foundation
import Testing

@testable import DeckAnki

/// A legacy media map naming a file as Anki would not (a control character, decomposed Unicode):
/// the file is renamed as Anki renames it, and so is every note's reference to it.
@Suite("Reading Anki packages: renamed media files")
struct MediaRenameTests {
  static let map =
    #"{"0":"日本.png","1":"_vocab.css","2":"café.png","3":"beep.wav","4":"pix\u0007el.png","5":"my photo.png"}"#

  @Test("a media name with a control character is renamed, with the notes' references to it")
  func controlCharacterName() throws {
    let scratch = try TemporaryDirectory()
    let source = Fixtures.path("anki/legacy2_sched.apkg")
    let withReference = scratch.path(for: "refs.apkg")
    try PackageSurgery.copy(
      source, to: withReference,
      runningOnCollection: "UPDATE notes SET flds = replace(flds, 'pixel.png', 'pix' || char(7) || 'el.png')")
    let damaged = scratch.path(for: "damaged.apkg")
    try PackageSurgery.copy(withReference, to: damaged, applying: .init(replace: ["media": Data(Self.map.utf8)]))
    let contents = try AnkiPackageReader().read(path: damaged)
    #expect(contents.collection.media.map(\.name).contains("pixel.png"))
    #expect(contents.collection.notes.first { $0.id == 1_795_331_276_845 }?.fields[1] == #"<img src="pixel.png">"#)
    #expect(
      contents.warnings.map(\.message) == [
        // The control character is shown as an escape (MediaFileName.visible), in the library's
        // message as on a terminal.
        "media file 'pix\\u{07}el.png' is renamed 'pixel.png', with every reference to it in the notes, as Anki renames it on import"
      ])
  }

  @Test("a decomposed (NFD) media name is renamed to NFC, and the warning says so in words")
  func decomposedName() throws {
    let scratch = try TemporaryDirectory()
    let nfd = "cafe\u{301}.png"
    let map = Self.map.replacingOccurrences(of: #"pix\u0007el.png"#, with: "pixel.png")
      .replacingOccurrences(of: "café.png", with: nfd)
    let damaged = scratch.path(for: "damaged.apkg")
    try PackageSurgery.copy(
      Fixtures.path("anki/legacy2_sched.apkg"), to: damaged, applying: .init(replace: ["media": Data(map.utf8)]))
    let contents = try AnkiPackageReader().read(path: damaged)
    #expect(contents.collection.media.contains { $0.name.unicodeScalars.elementsEqual("caf\u{E9}.png".unicodeScalars) })
    #expect(
      contents.warnings.map(\.message) == [
        "media file 'café.png' is named in decomposed Unicode (not NFC); it is renamed to the composed (NFC) form, with every reference to it in the notes, as Anki renames it on import"
      ])
  }
}
