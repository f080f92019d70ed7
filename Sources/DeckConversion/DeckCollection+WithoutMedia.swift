import DeckCore

extension DeckCollection {
  /// This collection without its media files, as Anki's export with "Include media" off holds
  /// it: the notes still name the files (an importing collection that has them shows them), but
  /// none travels.
  public func withoutMedia() -> DeckCollection {
    var result = self
    result.media = []
    return result
  }
}
