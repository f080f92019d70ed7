import DeckCore
import Foundation
import JSONCore

/// What Anki's import of a deck package keeps of a card's `data`, the JSON object beside its
/// schedule, as warnings naming the cards whose data it changes.
///
/// Checked with the real backend (anki 26.9.3, `Tests/anki/test_values_anki_import_changes.py`):
/// the import reads each member it knows by itself and writes the object again, so it keeps
/// `pos` (the position a new card had, a whole number 0…4294967295), `lrt` (a whole number),
/// `cd` (text), and the 32-bit floats `dr`, `decay` and `s` with `d` (the FSRS memory state),
/// rounded to 2, 3, 4 and 3 decimal places, `null` beyond a 32-bit float's range and 0 when too
/// small for one; a member of another kind, `s` without `d` or `d` without `s`, and any other key
/// are left out, and text that is no JSON object, or an object with a key given twice, leaves
/// the card `{}`.
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
      .cardDataChanged, at: location.item("card \(first.id)"),
      "\(CountedNoun.phrase(count, "card")) \(count == 1 ? "has" : "have") data (beside the schedule) that Anki's import of a deck package does not keep as it is (\(named.joined(separator: "; "))\(count > 3 ? "; and \(count - 3) more" : "")); \(count == 1 ? "it is" : "they are") written as \(count == 1 ? "it is" : "they are") (a .colpkg keeps it)"
    )
  }

  /// What Anki's import changes of `data`: empty when it keeps its meaning.
  static func losses(of data: String) -> [String] {
    guard let parsed = try? JSONParser.parse(Array(data.utf8), options: .anki), let members = parsed.members else {
      return ["'\(excerpt(data))' is no JSON object, so the card's data is left empty"]
    }
    let keys = members.map(\.key)
    if Set(keys).count < keys.count {
      return ["a key given twice makes Anki leave the card's data empty"]
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
        if value.double?.isFinite != true {
          losses.append("\(key) \(text(value)) is left out")
        } else {
          losses += floatChanges(key, value)
        }
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
          if let value = memory[key] { losses += floatChanges(key, value) }
        }
      }
    }
    return losses
  }

  /// The decimal places Anki keeps of each 32-bit float member when it writes the data again.
  private static let places = ["s": 4, "d": 3, "dr": 2, "decay": 3]

  /// What Anki's import makes otherwise of the number `value` of the float member `key`: null
  /// beyond a 32-bit float, 0 when too small for one, else rounded to the member's places.
  private static func floatChanges(_ key: String, _ value: JSONValue) -> [String] {
    guard let number = value.double else { return [] }
    if abs(number) > Double(Float.greatestFiniteMagnitude) {
      return ["\(key) \(text(value)) becomes null (beyond a 32-bit float)"]
    }
    if number != 0, Float(number) == 0 { return ["\(key) \(text(value)) becomes 0 (too small for a 32-bit float)"] }
    let scale = pow(10, Double(places[key] ?? 0))
    let rounded = (Double(Float(number)) * scale).rounded() / scale
    guard abs(rounded - number) > 1e-9 * max(1, abs(number)) else { return [] }
    return ["\(key) \(text(value)) becomes \(text(.double(rounded))) (Anki keeps \(places[key] ?? 0) decimal places)"]
  }

  /// Whether `value` is a whole number written without a fraction, within `range`.
  private static func isWhole(_ value: JSONValue, in range: ClosedRange<Int64>) -> Bool {
    if case .integer(let number) = value { return range.contains(number) }
    return false
  }

  private static func text(_ value: JSONValue) -> String { excerpt(JSONWriter.text(of: value)) }

  private static func excerpt(_ text: String) -> String { text.count > 40 ? "\(text.prefix(40))…" : text }
}
