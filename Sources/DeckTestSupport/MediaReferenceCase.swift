import Foundation

/// One case of `fixtures/media-references/reference_cases.json`: a field and what the real Anki
/// backend found in it (`make_reference_cases.py`).
public struct MediaReferenceCase: Decodable, Sendable {
  /// The field's text.
  public var field: String
  /// The names the backend's `extract_media_files` returned, in its order.
  public var references: [String]
  /// The sort field the backend stored for a Basic note with this Front.
  public var sortField: String
  /// The checksum the backend stored for it.
  public var checksum: UInt32

  /// A short description for test names.
  public var testDescription: String { String(field.prefix(60)).debugDescription }

  /// Every case; empty when the file cannot be read (the tests that use it check it is not).
  public static let all: [MediaReferenceCase] = BackendCases.load("media-references/reference_cases.json")
}
