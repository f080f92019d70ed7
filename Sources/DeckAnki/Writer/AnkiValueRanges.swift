import DeckCore

/// The ranges in which Anki reads the numbers of a collection, and the fitting of a model's
/// numbers into them before they are written.
///
/// The SQLite columns are 64-bit, and deckport's model keeps every value as it was read, but
/// Anki's importer reads most scheduling columns into narrower integers. Observed with the real
/// backend (anki 26.9.3, `docs/damage.md`): a value outside the range of `ivl`, `factor`,
/// `reps`, `lapses`, `left`, `flags`, `ord` or a review's `ease`, `ivl`, `lastIvl`, `factor`
/// makes the whole import fail ("IntegralValueOutOfRange"), as does a card `type` or `queue`
/// Anki does not define (`InvalidColumnType`); `due` and `odue` outside 32 bits, a review's
/// `time` outside 32 unsigned bits and a review `type` Anki does not define are silently read
/// as 0; `col.crt` outside
/// the years Anki can represent fails the import ("invalid timestamp"). Ids and modification
/// times are 64-bit in Anki too and are written as they are.
///
/// So that every package deckport writes imports, each value outside its range is written as
/// the nearest value inside it, with one `value-clamped` warning naming the card or review and
/// every value changed (`--strict` turns it into a failure).
enum AnkiValueRanges {
  /// The range of a card column as Anki reads it.
  static let due = Int64(Int32.min)...Int64(Int32.max)
  static let interval = Int64(0)...Int64(UInt32.max)
  static let easeFactor = Int64(0)...Int64(UInt16.max)
  static let counter = Int64(0)...Int64(UInt32.max)
  static let flags = Int64(0)...Int64(UInt8.max)
  static let ordinal = Int64(0)...Int64(UInt16.max)
  /// Card types and queues Anki defines: another value makes the import fail
  /// (`InvalidColumnType`), even one that fits the column's width.
  static let cardType = Int64(0)...Int64(3)
  static let queue = Int64(-3)...Int64(4)
  /// The range of a review-log column as Anki reads it.
  static let reviewButton = Int64(0)...Int64(UInt8.max)
  static let reviewInterval = Int64(Int32.min)...Int64(Int32.max)
  static let reviewEase = Int64(0)...Int64(UInt32.max)
  static let reviewDuration = Int64(0)...Int64(UInt32.max)
  /// Review kinds Anki defines: it reads another value as 0 (learning).
  static let reviewKind = Int64(0)...Int64(5)
  /// The seconds Anki accepts as `col.crt` (measured: the first and last second it imports).
  static let creationTime = Int64(-8_334_601_228_800)...Int64(8_210_266_876_799)

  /// `collection` with every card, review and the creation time inside Anki's ranges; each
  /// change is reported in `log`.
  static func fitted(
    _ collection: DeckCollection, location: SourceLocation, log: inout DiagnosticLog
  ) -> DeckCollection {
    var result = collection
    if !creationTime.contains(collection.creationTime) {
      let fitted = clamp(collection.creationTime, to: creationTime)
      log.report(
        .valueClamped, at: location.table("col"),
        "the collection's creation time \(collection.creationTime) is outside the times Anki accepts (\(creationTime.lowerBound)…\(creationTime.upperBound) seconds); \(fitted) is written"
      )
      result.creationTime = fitted
    }
    fitEach(&result.cards, with: fittedCard, inRange: cardIsInRange, location: location, log: &log) { card in
      (item: "card \(card.id)", subject: "")
    }
    fitEach(&result.reviews, with: fittedReview, inRange: reviewIsInRange, location: location, log: &log) { review in
      (item: "review \(review.id)", subject: "review of card \(review.cardID): ")
    }
    return result
  }

  /// Fits each of `rows` with `fit`, replacing only the rows that change, and reports each
  /// change at the item `describe` names, its message starting with the subject `describe` gives.
  ///
  /// The rows are only read until every change is known, and written only if there is one: the
  /// usual collection needs no change, and its array (shared with the deck that was read) must
  /// then not be copied. A loop that both read and wrote `rows` would copy it before its first
  /// pass, since the optimiser makes the array unique ahead of the loop (measured with massif:
  /// a copy of every card, 144 bytes each, at the peak of every package write).
  private static func fitEach<Row>(
    _ rows: inout [Row], with fit: (Row, inout Changes) -> Row, inRange isInRange: (Row) -> Bool,
    location: SourceLocation, log: inout DiagnosticLog, describe: (Row) -> (item: String, subject: String)
  ) {
    var replacements: [(index: Int, row: Row)] = []
    for index in rows.indices where !isInRange(rows[index]) {
      var changes = Changes()
      let row = fit(rows[index], &changes)
      guard !changes.isEmpty else { continue }
      replacements.append((index, row))
      let (item, subject) = describe(row)
      log.reportLimited(
        .valueClamped, at: location.item(item), summaryAt: location,
        "\(subject)\(changes.text): Anki reads \(changes.columns) in a narrower range and would otherwise refuse the package or read 0"
      )
    }
    guard !replacements.isEmpty else { return }
    for replacement in replacements { rows[replacement.index] = replacement.row }
  }

  /// What was changed in one row, as "ivl -5 is written as 0, factor …".
  private struct Changes {
    var items: [String] = []
    var isEmpty: Bool { items.isEmpty }
    var columns: String { items.count == 1 ? "this column" : "these columns" }
    var text: String { items.joined(separator: ", ") }

    /// `value` inside `range`, noting the change under `column`.
    mutating func fit(_ value: Int64, _ range: ClosedRange<Int64>, _ column: String) -> Int64 {
      let fitted = AnkiValueRanges.clamp(value, to: range)
      if fitted != value { items.append("\(column) \(value) is written as \(fitted)") }
      return fitted
    }

    mutating func fit(_ value: Int, _ range: ClosedRange<Int64>, _ column: String) -> Int {
      Int(fit(Int64(value), range, column))
    }

    /// A card type, queue or review kind, fitted by its stored number.
    mutating func fit<Code: RawRepresentable<Int>>(_ value: Code, _ range: ClosedRange<Int64>, _ column: String) -> Code
    {
      Code(rawValue: fit(value.rawValue, range, column)) ?? value
    }
  }

  /// Whether ``fittedCard(_:_:)`` would leave `card` as it is: a quick test, as most cards are.
  private static func cardIsInRange(_ card: Card) -> Bool {
    let s = card.scheduling
    return ordinal.contains(Int64(card.templateOrdinal)) && cardType.contains(Int64(s.type.rawValue))
      && queue.contains(Int64(s.queue.rawValue)) && due.contains(s.due) && interval.contains(Int64(s.interval))
      && easeFactor.contains(Int64(s.easeFactor)) && counter.contains(Int64(s.reviews))
      && counter.contains(Int64(s.lapses)) && counter.contains(Int64(s.remainingSteps)) && due.contains(s.originalDue)
      && flags.contains(Int64(s.flags))
  }

  /// Whether ``fittedReview(_:_:)`` would leave `review` as it is.
  private static func reviewIsInRange(_ review: Review) -> Bool {
    reviewButton.contains(Int64(review.ease)) && reviewInterval.contains(review.interval)
      && reviewInterval.contains(review.lastInterval) && reviewEase.contains(Int64(review.easeFactor))
      && reviewDuration.contains(Int64(review.duration)) && reviewKind.contains(Int64(review.kind.rawValue))
  }

  private static func fittedCard(_ card: Card, _ changes: inout Changes) -> Card {
    var card = card
    card.templateOrdinal = changes.fit(card.templateOrdinal, ordinal, "ord")
    var s = card.scheduling
    s.type = changes.fit(s.type, cardType, "type")
    s.queue = changes.fit(s.queue, queue, "queue")
    s.due = changes.fit(s.due, due, "due")
    s.interval = changes.fit(s.interval, interval, "ivl")
    s.easeFactor = changes.fit(s.easeFactor, easeFactor, "factor")
    s.reviews = changes.fit(s.reviews, counter, "reps")
    s.lapses = changes.fit(s.lapses, counter, "lapses")
    s.remainingSteps = changes.fit(s.remainingSteps, counter, "left")
    s.originalDue = changes.fit(s.originalDue, due, "odue")
    s.flags = changes.fit(s.flags, flags, "flags")
    card.scheduling = s
    return card
  }

  private static func fittedReview(_ review: Review, _ changes: inout Changes) -> Review {
    var review = review
    review.ease = changes.fit(review.ease, reviewButton, "ease")
    review.interval = changes.fit(review.interval, reviewInterval, "ivl")
    review.lastInterval = changes.fit(review.lastInterval, reviewInterval, "lastIvl")
    review.easeFactor = changes.fit(review.easeFactor, reviewEase, "factor")
    review.duration = changes.fit(review.duration, reviewDuration, "time")
    review.kind = changes.fit(review.kind, reviewKind, "type")
    return review
  }

  /// `value` if `range` holds it, else the bound nearest to it.
  static func clamp(_ value: Int64, to range: ClosedRange<Int64>) -> Int64 {
    min(max(value, range.lowerBound), range.upperBound)
  }
}
