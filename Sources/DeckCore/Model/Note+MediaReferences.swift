extension Note {
  /// The media files the note's fields refer to, as Anki finds them when it exports or checks
  /// media: the `src` of `<img>`, `<audio>`, `<video>` and `<source>` tags, the `data` of
  /// `<object>`, and `[sound:…]` tags, with character references decoded (`a&amp;b.mp3` is
  /// `a&b.mp3`); remote URLs and paths that are not one file name are left out. Each name once,
  /// field by field (in a field, media tags before sound tags, as Anki lists them), written as the
  /// field writes it; look the files up in ``DeckCollection/media`` by name (Anki's import stores
  /// an odd name such as `a/` under the name it makes of it, `a`).
  ///
  /// ```swift
  /// let note = Note(id: 1, guid: "x", noteTypeID: 1, fields: [#"<img src="my photo.png">"#, "[sound:hi.mp3]"])
  /// note.referencedMediaNames  // ["my photo.png", "hi.mp3"]
  /// ```
  ///
  /// Templates and styling may refer to files too (a font in the CSS); those are the note
  /// type's, not the note's.
  public var referencedMediaNames: [String] {
    var seen = Set<String>()
    return fields.flatMap(MediaReferences.fileNames(in:)).filter { seen.insert($0).inserted }
  }
}
