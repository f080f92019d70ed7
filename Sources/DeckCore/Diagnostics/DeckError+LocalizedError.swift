import Foundation

extension DeckError: LocalizedError {
  /// The same line as ``description`` (`<location>: <message>`), so that what an app shows
  /// through `localizedDescription` (an alert, a bridged `NSError`) says what went wrong and where
  /// instead of "The operation could not be completed".
  public var errorDescription: String? { description }

  /// What the error's kind means, as a sentence (``Kind/explanation``, settings named as the
  /// library spells them): "The file does not exist or cannot be opened.", the bridged
  /// `NSError`'s `localizedFailureReason`.
  public var failureReason: String? {
    let explanation = kind.explanation.text
    guard let first = explanation.first else { return nil }
    return first.uppercased() + explanation.dropFirst() + "."
  }
}
