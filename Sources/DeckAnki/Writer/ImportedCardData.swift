import DeckCore
import JSONCore

/// What Anki's import of a deck package keeps of a card's `data`, the JSON object beside its
/// schedule, as warnings naming the cards whose data it changes.
///
/// Checked with the real backend (anki 26.9.3, `Tests/anki/test_values_anki_import_changes.py`):
/// the import reads each member it knows by itself and writes the object again, so it keeps
/// `pos` (the position a new card had, a whole number 0…4294967295), `lrt` (a whole number),
/// `dr` and `decay` (numbers), `cd` (text), and `s` with `d` (the FSRS memory state: two numbers,
/// held as 32-bit floats, so a number beyond their range becomes `null` and one too small for
/// them 0); a member of another kind, `s` without `d` or `d` without `s`, and any other key are
/// left out, and text that is no JSON object leaves the card `{}`.
enum ImportedCardData {
  /// Each card's data changes, for `cards` written into a deck package; one warning counting
  /// the cards and naming the first with what changes (`--strict` turns it into a failure). The
  /// data is written as it is: it is what the deck holds, and a `.colpkg` keeps it.
  static func report(_ cards: [Card], location: SourceLocation, log: inout DiagnosticLog) {
    var changed: [(id: Int64, losses: [String])] = []
    for card in cards where !card.scheduling.data.isEmpty {
      let losses = self.losses(of: card.scheduling.data)
      if !losses.isEmpty { changed.append((card.id, losses)) }
    }
    guard let first = changed.first else { return }
    let count = changed.count
    let named = changed.prefix(3).map { "card \($0.id): \($0.losses.joined(separator: ", "))" }
    log.report(
      "card-data-changed", at: location.item("card \(first.id)"),
      "\(CountedNoun.phrase(count, "card")) \(count == 1 ? "has" : "have") data (beside the schedule) that Anki's import of a deck package does not keep as it is (\(named.joined(separator: "; "))\(count > 3 ? "; and \(count - 3) more" : "")); \(count == 1 ? "it is" : "they are") written as \(count == 1 ? "it is" : "they are") (a .colpkg keeps it)"
    )
  }

  /// What Anki's import changes of `data`: empty when it keeps its meaning.
  static func losses(of data: String) -> [String] {
    guard let parsed = try? JSONParser.parse(Array(data.utf8)), let members = parsed.members else {
      return ["'\(excerpt(data))' is no JSON object, so the card's data is left empty"]
    }
    var losses: [String] = []
    var memory: [String: JSONValue] = [:]
    for (key, value) in members {
      switch key {
      case "pos":
        if !isWhole(value, in: 0...4_294_967_295) { losses.append("pos \(text(value)) is left out") }
      case "lrt":
        if !isWhole(value, in: Int64.min...Int64.max) { losses.append("lrt \(text(value)) is left out") }
      case "dr", "decay":
        if value.double?.isFinite != true { losses.append("\(key) \(text(value)) is left out") }
      case "cd":
        if value.string == nil { losses.append("cd \(text(value)) is left out") }
      case "s", "d":
        memory[key] = value
      default:
        losses.append("the key '\(key)' is left out")
      }
    }
    if !memory.isEmpty {
      let numbers = ["s", "d"].compactMap { memory[$0]?.double }.filter(\.isFinite)
      if numbers.count < 2 {
        losses.append("the memory state (s and d) is left out, as it is not two numbers")
      } else {
        for key in ["s", "d"] {
          guard let value = memory[key], let number = value.double else { continue }
          if abs(number) > Double(Float.greatestFiniteMagnitude) {
            losses.append("\(key) \(text(value)) becomes null (beyond a 32-bit float)")
          } else if number != 0, Float(number) == 0 {
            losses.append("\(key) \(text(value)) becomes 0 (too small for a 32-bit float)")
          }
        }
      }
    }
    return losses
  }

  /// Whether `value` is a whole number written without a fraction, within `range`.
  private static func isWhole(_ value: JSONValue, in range: ClosedRange<Int64>) -> Bool {
    if case .integer(let number) = value { return range.contains(number) }
    return false
  }

  private static func text(_ value: JSONValue) -> String { excerpt(JSONWriter.text(of: value)) }

  private static func excerpt(_ text: String) -> String { text.count > 40 ? "\(text.prefix(40))…" : text }
}
