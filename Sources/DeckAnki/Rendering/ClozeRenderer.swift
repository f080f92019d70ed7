import DeckCore

/// Renders clozes as the `cloze` filter does for one card and side (Anki's `reveal_cloze`).
struct ClozeRenderer {
  /// The field's UTF-8 bytes.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The card's cloze number.
  let number: Int
  /// Whether the answer side is rendered.
  let isAnswer: Bool
  /// How many more bytes of `data-cloze` attributes may be written (``AnkiCloze/minimumAttributeBudget``).
  var attributeBudget: Int
  /// Whether a cloze of the card's number was met (outside Image Occlusion shapes).
  private(set) var activeClozeFound = false

  init(bytes: UnsafeBufferPointer<UInt8>, number: Int, isAnswer: Bool, attributeBudget: Int) {
    self.bytes = bytes
    self.number = number
    self.isAnswer = isAnswer
    self.attributeBudget = attributeBudget
  }

  /// Appends `cloze` rendered to `output`.
  mutating func render(_ cloze: Cloze, into output: inout [UInt8]) {
    let active = cloze.numbers.contains(number)
    if active { activeClozeFound = true }
    if let shape = cloze.imageOcclusion(in: bytes) {
      let kind: String
      if (!isAnswer && active) || cloze.numbers.contains(0) {
        kind = "cloze"
      } else if !active {
        kind = "cloze-inactive"
      } else {
        kind = "cloze-highlight"
      }
      let data = ImageOcclusionShape.dataAttributes(String(decoding: bytes[shape], as: UTF8.self))
      output.append(contentsOf: "<div class=\"\(kind)\" data-ordinal=\"\(cloze.ordinalList)\" \(data)></div>".utf8)
      return
    }
    if active && !isAnswer {
      var hidden: [UInt8] = []
      renderNodes(of: cloze, into: &hidden)
      output.append(contentsOf: "<span class=\"cloze\" data-cloze=\"".utf8)
      let length = AnkiCloze.encodedAttributeLength(hidden[...])
      if length <= attributeBudget {
        attributeBudget -= length
        AnkiCloze.appendEncodingAttribute(hidden[...], to: &output)
      }
      output.append(contentsOf: "\" data-ordinal=\"\(cloze.ordinalList)\">[".utf8)
      if let hint = cloze.hint {
        output.append(contentsOf: bytes[hint])
      } else {
        output.append(contentsOf: "...".utf8)
      }
      output.append(contentsOf: "]</span>".utf8)
    } else {
      let kind = active ? "cloze" : "cloze-inactive"
      output.append(contentsOf: "<span class=\"\(kind)\" data-ordinal=\"\(cloze.ordinalList)\">".utf8)
      renderNodes(of: cloze, into: &output)
      output.append(contentsOf: "</span>".utf8)
    }
  }

  private mutating func renderNodes(of cloze: Cloze, into output: inout [UInt8]) {
    for node in cloze.nodes {
      switch node {
      case .text(let range): output.append(contentsOf: bytes[range])
      case .cloze(let inner): render(inner, into: &output)
      }
    }
  }
}
