import Foundation

extension DeckError: CustomNSError {
  /// `deckport.DeckError`: the domain of every ``DeckError`` bridged to `NSError` (an app's
  /// `error as NSError`, an error reported to a crash or analytics service), the same in every
  /// release and on every platform.
  public static var errorDomain: String { "deckport.DeckError" }

  /// The number of the error's kind (``Kind/errorCode``), the `code` of the bridged `NSError`.
  public var errorCode: Int { kind.errorCode }

  /// The error's line as the `NSError`'s `localizedDescription` and its kind's meaning as its
  /// `localizedFailureReason` (``LocalizedError``'s ``errorDescription`` and ``failureReason``),
  /// written out: on Linux, Foundation takes a `CustomNSError`'s texts from here alone.
  public var errorUserInfo: [String: Any] {
    var info: [String: Any] = [NSLocalizedDescriptionKey: description]
    if let failureReason { info[NSLocalizedFailureReasonErrorKey] = failureReason }
    return info
  }
}

extension DeckError.Kind {
  /// A number for the kind that stays the same in every release: the `code` of a ``DeckError``
  /// bridged to `NSError` (domain ``DeckError/errorDomain``), for an app that tells kinds apart
  /// by number or logs them.
  ///
  /// | Code | Kind |
  /// | ---- | ---- |
  /// | 1 | ``unreadableFile`` |
  /// | 2 | ``wrongFormat`` |
  /// | 3 | ``missingPart`` |
  /// | 4 | ``corrupt`` |
  /// | 5 | ``unsupportedVersion`` |
  /// | 6 | ``limitExceeded`` |
  /// | 7 | ``memoryLimitExceeded`` |
  /// | 8 | ``writeFailed`` |
  /// | 9 | ``invalidRequest`` |
  /// | 10 | ``unknownFormat`` |
  /// | 11 | ``notFaithful`` |
  ///
  /// A kind added later takes the next number; none is ever renumbered or reused.
  public var errorCode: Int {
    switch self {
    case .unreadableFile: 1
    case .wrongFormat: 2
    case .missingPart: 3
    case .corrupt: 4
    case .unsupportedVersion: 5
    case .limitExceeded: 6
    case .memoryLimitExceeded: 7
    case .writeFailed: 8
    case .invalidRequest: 9
    case .unknownFormat: 10
    case .notFaithful: 11
    }
  }
}
