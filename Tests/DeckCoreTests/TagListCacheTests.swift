import DeckCore
import Testing

@Suite("Tag lists: one shared array per distinct tag text")
struct TagListCacheTests {
  static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: " ").map(String.init)
  }

  static func tags(_ text: String, from cache: inout TagListCache) -> [String] {
    var text = text
    return text.withUTF8 { bytes in cache.tags(for: bytes, split: split) }
  }

  static func storage(of tags: [String]) -> UnsafeRawPointer? {
    tags.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  @Test("the same text gives the same array, other text its own, and a changed copy does not touch the others")
  func sharing() {
    var cache = TagListCache()
    let first = Self.tags(" level::2 vocabulary ", from: &cache)
    let second = Self.tags(" level::2 vocabulary ", from: &cache)
    let other = Self.tags(" level::3 vocabulary ", from: &cache)
    #expect(first == ["level::2", "vocabulary"])
    #expect(other == ["level::3", "vocabulary"])
    #expect(Self.storage(of: first) == Self.storage(of: second))
    #expect(Self.storage(of: first) != Self.storage(of: other))
    var changed = second
    changed.append("marked")
    #expect(first == ["level::2", "vocabulary"])
    #expect(Self.tags(" level::2 vocabulary ", from: &cache) == ["level::2", "vocabulary"])
  }

  @Test("past its capacity the cache still splits every text, without keeping it")
  func capacity() {
    var cache = TagListCache()
    for index in 0..<TagListCache.capacity { _ = Self.tags("t\(index)", from: &cache) }
    let first = Self.tags("beyond", from: &cache)
    let second = Self.tags("beyond", from: &cache)
    #expect(first == ["beyond"] && second == ["beyond"])
    #expect(Self.storage(of: first) != Self.storage(of: second))
    #expect(Self.storage(of: Self.tags("t1", from: &cache)) == Self.storage(of: Self.tags("t1", from: &cache)))
  }

  @Test("a decoded list equal to a kept one gives the kept array; past the capacity lists are returned as they are")
  func decodedLists() {
    var cache = TagListCache()
    let first = cache.shared(["level::2", "vocabulary"])
    let second = cache.shared(["level::2", "vocabulary"])
    let other = cache.shared(["level::2"])
    #expect(second == ["level::2", "vocabulary"] && other == ["level::2"])
    #expect(Self.storage(of: first) == Self.storage(of: second))
    #expect(Self.storage(of: first) != Self.storage(of: other))
    #expect(cache.shared([]).isEmpty)
    for index in 0..<TagListCache.capacity { _ = cache.shared(["t\(index)"]) }
    let beyond = ["beyond"]
    let again = ["beyond"]
    _ = cache.shared(beyond)
    #expect(Self.storage(of: cache.shared(again)) == Self.storage(of: again), "not kept past the capacity")
    #expect(Self.storage(of: cache.shared(["level::2", "vocabulary"])) == Self.storage(of: first))
  }
}
