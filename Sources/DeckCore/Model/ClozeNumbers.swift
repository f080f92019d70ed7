/// The cloze numbers a field holds, as Anki finds them (`cloze_number_in_fields` in its
/// `rslib/src/cloze.rs`): the cards a cloze note gets (``CardGeneration``), and whether a cloze
/// card's front is empty when it is rendered.
///
/// ```swift
/// ClozeNumbers.numbers(in: "{{c1,2::shared}} {{c3::x {{c4::y}}}}")  // [1, 2, 3, 4]
/// ClozeNumbers.numbers(in: "{{C1::upper}} {{c2::never closed")      // []
/// ```
package enum ClozeNumbers {
  /// How many clozes Anki keeps open at once; an opening marker beyond them is dropped.
  package static let maximumOpenClozes = 10

  /// The cloze numbers in `text`, as Anki's `cloze_number_in_fields` finds them (the cards a
  /// cloze note gets, and whether a card's front is empty): every number of every cloze that is
  /// closed, with all the clozes around it, except 0. `{{c1,2::…}}` holds 1 and 2.
  package static func numbers(in text: String) -> Set<Int> {
    guard text.containsUTF8Byte(UInt8(ascii: "{")) else { return [] }
    var text = text
    return text.withUTF8 { bytes -> Set<Int> in
      var found: Set<Int> = []
      // The numbers of each open cloze and of the closed clozes inside it: they count only
      // once every cloze around them is closed too.
      var open: [[Int]] = []
      var tokens = ClozeTokens(bytes: bytes)
      while let token = tokens.next() {
        switch token {
        case .opening(let numbers):
          if open.count < maximumOpenClozes { open.append(numbers) }
        case .closing:
          guard let closed = open.popLast() else { continue }
          if open.isEmpty {
            found.formUnion(closed.lazy.filter { $0 != 0 })
          } else {
            open[open.count - 1] += closed
          }
        case .text:
          continue
        }
      }
      return found
    }
  }
}
