/// A format's reader: the file or folder at a path into the model.
package protocol DeckFileReader {
  /// Reads the file or folder at `path`.
  ///
  /// - Throws: ``DeckError`` naming the file and the place in it.
  func read(path: String) throws -> (collection: DeckCollection, warnings: [Diagnostic])
}

/// A format's writer: the model into a file or folder at a path.
package protocol DeckFileWriter {
  /// Writes `collection` to `path`. Errors and warnings name `destination` when given (the final
  /// name of a temporary file or folder), else `path`.
  ///
  /// - Returns: what was written and what could not be kept, each warning naming its item.
  /// - Throws: ``DeckError`` naming the destination and the item that could not be written.
  func write(_ collection: DeckCollection, to path: String, reportingAs destination: String?) throws
    -> (written: DeckCollection, warnings: [Diagnostic])
}

/// A writer that first repairs what would not read back (``CollectionRepair``: a card whose note
/// does not exist is left out, a card in a missing deck gets a deck, a note's values are fitted to
/// its note type's fields), then writes the repaired collection.
package protocol RepairingDeckWriter: DeckFileWriter {
  /// Writes `collection`, already repaired, to `path`; errors name `location`.
  func writeRepaired(_ collection: DeckCollection, to path: String, location: SourceLocation) throws
}

extension RepairingDeckWriter {
  /// Repairs `collection`, then writes it to `path`. Errors and warnings name `destination` when
  /// given (the final name of a temporary file or folder), else `path`.
  ///
  /// - Returns: what was written (the repaired collection) and a warning for each repair.
  @discardableResult
  package func write(_ collection: DeckCollection, to path: String, reportingAs destination: String? = nil) throws
    -> (written: DeckCollection, warnings: [Diagnostic])
  {
    let location = SourceLocation(file: destination ?? path)
    let (repaired, warnings) = try CollectionRepair.repaired(collection, location: location)
    try writeRepaired(repaired, to: path, location: location)
    return (repaired, warnings)
  }
}

/// A format whose reading and writing is all its reader's and writer's, made from the context:
/// the deck read takes the format's name, and the writer names the context's destination.
package protocol ReaderWriterFormat: DeckFormat {
  /// The format's reader.
  associatedtype Reader: DeckFileReader
  /// The format's writer.
  associatedtype Writer: DeckFileWriter

  /// The reader for `context` (its options, its progress reporter).
  func reader(_ context: FormatReadContext) -> Reader

  /// The writer for `context` (its options, its progress reporter).
  func writer(_ context: FormatWriteContext) -> Writer
}

extension ReaderWriterFormat {
  /// Reads the file or folder with the format's reader.
  public func read(path: String, context: FormatReadContext) throws -> LoadedDeck {
    LoadedDeck(try reader(context).read(path: path), as: description)
  }

  /// Writes the file or folder with the format's writer.
  public func write(_ collection: DeckCollection, to path: String, context: FormatWriteContext) throws
    -> DeckWriteResult
  {
    DeckWriteResult(try writer(context).write(collection, to: path, reportingAs: context.destination))
  }
}
