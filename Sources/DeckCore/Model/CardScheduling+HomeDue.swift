extension CardScheduling {
  /// Whether Anki reads the card's due from `originalDue`: a card a filtered deck has borrowed
  /// keeps there the due it has in its home deck (`odid` and `odue` both set). The one rule of
  /// it, for the due dates, the CSV `due` column and `diff`.
  package var duesInHomeDeck: Bool { originalDeckID != 0 && originalDue != 0 }

  /// The due Anki reads for the card: `originalDue` in a filtered deck (``duesInHomeDeck``),
  /// else `due`.
  package var homeDue: Int64 { duesInHomeDeck ? originalDue : due }
}
