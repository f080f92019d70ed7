extension NoteType {
  /// The style sheet of Anki's stock Basic note types (and the start of Cloze's), as current
  /// Anki writes it.
  package static let stockBasicCSS = #"""
    .card {
        font-family: arial;
        font-size: 20px;
        line-height: 1.5;
        text-align: center;
        color: black;
        background-color: white;
    }

    """#
}
