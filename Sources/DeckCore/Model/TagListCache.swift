/// One shared array for each distinct tag list a reader meets.
///
/// Most notes of a deck share their tag list with many others (`level::2 vocabulary`), and a
/// `[String]` of three short tags costs about 100 bytes on the heap. A reader that asks this
/// cache for each note's tags gets the same array back for the same text, so a
/// million-note deck holds each list once instead of a million times (measured: about 96 MB
/// of a 1,000,000-note conversion). Swift's arrays are copied on write, so a note whose tags
/// are changed later gets its own array then, and sharing is invisible to every user.
///
/// The cache keeps at most ``capacity`` lists; a deck whose notes all have different tags
/// stops filling it, and costs no more than before.
package struct TagListCache {
  /// How many distinct tag lists are kept at most.
  package static let capacity = 4096

  private var lists: [String: [String]] = [:]
  private var decodedLists = Set<[String]>()

  /// An empty cache.
  package init() {}

  /// The tag list of the stored UTF-8 `bytes`, made by `split` the first time they are met.
  package mutating func tags(
    for bytes: UnsafeBufferPointer<UInt8>, split: (UnsafeBufferPointer<UInt8>) -> [String]
  ) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    if let known = lists[text] { return known }
    let tags = split(bytes)
    if lists.count < Self.capacity { lists[text] = tags }
    return tags
  }

  /// The kept array equal to `tags`, or `tags` itself the first time it is met: for a reader
  /// that decodes each list as an array of strings (a JSON deck).
  package mutating func shared(_ tags: [String]) -> [String] {
    if tags.isEmpty { return [] }
    if let index = decodedLists.firstIndex(of: tags) { return decodedLists[index] }
    if decodedLists.count < Self.capacity { decodedLists.insert(tags) }
    return tags
  }
}
