import DeckCore

/// The note types a file's rows name, and what each needs to become once every row is read.
///
/// A stock name, in any language Anki speaks (``StockNoteType/noteType(named:fieldNames:)``),
/// gets the stock note type as Anki creates it in that language. A name Anki would not know
/// gets a note type made from the file (fields named by `#columns:`, the header row or
/// `Field 1…N`; one card showing the first field, or a cloze card when the first field holds
/// cloze deletions), with a warning. When rows give a stock note type more fields than it has
/// (a collection's own "Basic" or "Cloze" may have more), the extra fields are added, with a
/// warning.
struct CSVNoteTypeCatalog {
  /// One note type as the rows use it.
  struct Entry {
    /// The name as the file first gives it (the stock spelling for a stock type).
    var name: String
    /// The stock note type, if the name is one.
    var stock: NoteType?
    /// Field names decided before reading rows (a mapping's names), for a non-stock type.
    var declaredNames: [String]?
    /// Names for fields by position, from column labels, used when the rows decide the count.
    var labels: [String] = []
    /// The most fields any row fills (the position of its last non-empty field, plus one).
    var usedWidth = 0
    /// Lines of the rows that use it (for messages).
    var lines = CSVLineSample()
    /// Whether a row's first field holds a cloze deletion (`{{c1::…}}`).
    var firstFieldHasCloze = false

    /// The number of fields a row must be padded to.
    var fieldCount: Int {
      max(stock?.fields.count ?? declaredNames?.count ?? 0, usedWidth, 1)
    }
  }

  private(set) var entries: [Entry] = []
  private var indexByName: [String: Int] = [:]

  /// The entry for `name` (compared ignoring case, as Anki compares note type names), created
  /// on first use; `declaredNames` and `labels` name the fields of a type the file defines.
  mutating func index(named name: String, declaredNames: [String]? = nil, labels: [String] = []) -> Int {
    let key = name.lowercased()
    if let index = indexByName[key] { return index }
    let stock = StockNoteType.noteType(named: name, fieldNames: declaredNames ?? labels)
    entries.append(
      Entry(name: stock?.name ?? name, stock: stock, declaredNames: stock == nil ? declaredNames : nil, labels: labels))
    indexByName[key] = entries.count - 1
    return entries.count - 1
  }

  /// The field names of the entry at `index` as far as known before the rows are read.
  func knownFieldNames(_ index: Int) -> [String]? {
    entries[index].stock?.fieldNames ?? entries[index].declaredNames
  }

  /// Records that a row on `line` filled `values` of the entry at `index`.
  mutating func use(_ index: Int, line: Int, values: [String]) {
    let width = (values.lastIndex(where: { !$0.isEmpty }) ?? -1) + 1
    entries[index].usedWidth = max(entries[index].usedWidth, width)
    entries[index].lines.add(line)
    if let first = values.first, !entries[index].firstFieldHasCloze, !ClozeNumbers.numbers(in: first).isEmpty {
      entries[index].firstFieldHasCloze = true
    }
  }

  /// The finished note types, by entry index, and a warning for each that is not a stock one.
  func noteTypes(location: SourceLocation) -> ([NoteType], [Diagnostic]) {
    var warnings: [Diagnostic] = []
    var result: [NoteType] = []
    for entry in entries {
      var place = location
      place.line = entry.lines.lines.first
      let used = entry.lines.listed
      if var stock = entry.stock {
        if entry.fieldCount > stock.fields.count {
          let extra = FieldNames.unique(
            (stock.fields.count..<entry.fieldCount).map { entry.labels.indices.contains($0) ? entry.labels[$0] : "" },
            after: stock.fieldNames)
          stock.fields += extra.map { NoteType.Field(name: $0) }
          warnings.append(
            Diagnostic(
              .csvNoteType, at: place,
              "rows give note type '\(stock.name)' \(entry.fieldCount) fields, but the stock '\(stock.name)' has \(stock.fields.count - extra.count) (\(stock.fieldNames.prefix(stock.fields.count - extra.count).joined(separator: ", "))); '\(stock.name)' gets the stock templates plus the fields \(extra.joined(separator: ", ")) (\(used))"
            ))
        }
        result.append(stock)
        continue
      }
      var names = entry.declaredNames ?? []
      let count = entry.fieldCount
      if names.count < count {
        names += (names.count..<count).map { entry.labels.indices.contains($0) ? entry.labels[$0] : "" }
      }
      names = FieldNames.unique(Array(names.prefix(count)), after: [])
      let noteType = Self.madeUp(name: entry.name, fields: names, cloze: entry.firstFieldHasCloze)
      result.append(noteType)
      warnings.append(
        Diagnostic(
          .csvNoteType, at: place,
          "note type '\(entry.name)' is not one of Anki's stock note types and a CSV file cannot define one: made a \(entry.firstFieldHasCloze ? "cloze note type" : "note type with one card showing the first field") and the fields \(names.joined(separator: ", ")) (\(used))"
        ))
    }
    return (result, warnings)
  }

  /// A note type for rows whose type the file only names: Basic's styling, one template.
  static func madeUp(name: String, fields: [String], cloze: Bool) -> NoteType {
    let first = "{{\(cloze ? "cloze:" : "")\(fields[0])}}"
    let rest = fields.dropFirst().map { "{{\($0)}}" }.joined(separator: "<br>\n")
    let answer: String
    if cloze {
      answer = first + (rest.isEmpty ? "" : "<br>\n" + rest)
    } else {
      answer = "{{FrontSide}}" + (rest.isEmpty ? "" : "\n\n<hr id=answer>\n\n" + rest)
    }
    return NoteType(
      id: StockNoteType.derivedID(forName: name), name: name, kind: cloze ? .cloze : .standard,
      fields: fields.map { NoteType.Field(name: $0) },
      templates: [NoteType.CardTemplate(name: cloze ? "Cloze" : "Card 1", questionFormat: first, answerFormat: answer)],
      css: NoteType.stockBasicCSS)
  }

  /// `4, 7, 9–5000, 5002`: sorted numbers with consecutive runs written as ranges, at most
  /// ten items and then how many more, so a row of 50,000 columns gives a short message.
  static func rangeList(_ numbers: [Int]) -> String {
    var items: [String] = []
    var index = 0
    let sorted = numbers.sorted()
    while index < sorted.count {
      var end = index
      while end + 1 < sorted.count, sorted[end + 1] <= sorted[end] + 1 { end += 1 }
      items.append(sorted[end] > sorted[index] ? "\(sorted[index])–\(sorted[end])" : String(sorted[index]))
      index = end + 1
    }
    return ShortList.text(items, limit: 10)
  }
}

/// Field names Anki accepts, made from column labels.
enum FieldNames {
  /// `labels` turned into usable, distinct field names: characters Anki rewrites (`:`, `{`, `}`,
  /// `"`) removed, a leading `#`, `/` or `^` dropped, spaces trimmed; an empty name becomes
  /// `Field N` (its position); a name already taken (ignoring case), here or in `existing`,
  /// gets a number.
  static func unique(_ labels: [String], after existing: [String]) -> [String] {
    var taken = Set(existing.map { $0.lowercased() })
    var result: [String] = []
    for (offset, label) in labels.enumerated() {
      var name = String(label.filter { !":{}\"".contains($0) && !$0.isNewline })
      while let first = name.first, "#/^".contains(first) || first.isWhitespace { name.removeFirst() }
      name = name.trimmingASCIIWhitespace()
      if name.isEmpty { name = "Field \(existing.count + offset + 1)" }
      var candidate = name
      var number = 2
      while taken.contains(candidate.lowercased()) {
        candidate = "\(name) \(number)"
        number += 1
      }
      taken.insert(candidate.lowercased())
      result.append(candidate)
    }
    return result
  }
}
