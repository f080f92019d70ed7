import DeckCore

/// Recognises the placeholder `collection.anki2` that modern Anki writes into every package for
/// old clients: a single Basic note asking the user to update.
enum PlaceholderCollection {
  static func isPlaceholder(_ collection: DeckCollection) -> Bool {
    guard collection.notes.count == 1, let field = collection.notes.first?.fields.first else {
      return false
    }
    return field.hasPrefix("Please update to the latest Anki version")
  }
}
