import Foundation

extension DeckError: LocalizedError {
  /// The same line as ``description`` (`<location>: <message>`), so that what an app shows
  /// through `localizedDescription` (an alert, a bridged `NSError`) says what went wrong and where
  /// instead of "The operation could not be completed".
  public var errorDescription: String? { description }
}
