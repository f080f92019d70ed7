import DeckCore
import Foundation
import Testing

/// A ``DeckError`` as an app sees it through `NSError` (`error as NSError`, an alert, a crash
/// reporter): a stable domain, a distinct code per kind that never changes, the message as the
/// description and the kind's meaning as the failure reason.
@Suite("DeckError bridged to NSError")
struct DeckErrorBridgingTests {
  /// Every kind's code, written out: a kind renumbered, or added without a code of its own, fails here.
  static let codes: [DeckError.Kind: Int] = [
    .unreadableFile: 1, .wrongFormat: 2, .missingPart: 3, .corrupt: 4, .unsupportedVersion: 5, .limitExceeded: 6,
    .memoryLimitExceeded: 7, .writeFailed: 8, .invalidRequest: 9, .unknownFormat: 10, .notFaithful: 11,
  ]

  @Test("every kind has its own code, the same in every release, in the domain deckport.DeckError")
  func domainAndCodes() {
    #expect(Set(DeckError.Kind.allCases) == Set(Self.codes.keys))
    for kind in DeckError.Kind.allCases {
      let bridged = DeckError(kind, at: SourceLocation(file: "deck.apkg"), "went wrong") as NSError
      #expect(bridged.domain == "deckport.DeckError")
      #expect(bridged.code == Self.codes[kind], "\(kind)")
      #expect(bridged.code == kind.errorCode)
    }
    #expect(Set(DeckError.Kind.allCases.map(\.errorCode)).count == DeckError.Kind.allCases.count)
  }

  @Test("the description is the error's line; the failure reason is what its kind means, as a sentence")
  func texts() {
    let error = DeckError(.corrupt, at: SourceLocation(file: "cut.apkg", member: "media"), "not a zstd frame")
    let bridged = error as NSError
    #expect(bridged.localizedDescription == "cut.apkg: member 'media': not a zstd frame")
    #expect(
      bridged.localizedFailureReason == "The input is of the right kind, but its content is damaged or inconsistent.")
    #expect(error.failureReason == bridged.localizedFailureReason)
    // A setting the explanation names is spelled as the library spells it.
    let strict = DeckError(.notFaithful, at: SourceLocation(file: "out.csv"), "lost something") as NSError
    #expect(strict.localizedFailureReason == "ConversionOptions.strict: something could not be kept faithfully.")
    for kind in DeckError.Kind.allCases {
      let reason = DeckError(kind, at: SourceLocation(file: "x"), "y").failureReason ?? ""
      #expect(reason.first?.isUppercase == true && reason.hasSuffix("."), "\(kind): \(reason)")
    }
  }

}
