import Foundation

/// One hostile shape: a piece repeated, Anki's pattern as NSRegularExpression runs it, and the
/// scan that replaced it.
struct Shape {
  let name: String
  let piece: String
  let pattern: String
  let options: NSRegularExpression.Options
  /// Repetitions of `piece` for the two NSRegularExpression runs.
  let smallCounts: [Int]
  let scan: (String) -> Int
}

let dotAll: NSRegularExpression.Options = [.caseInsensitive, .dotMatchesLineSeparators]
let markup = #"(<!--.*?-->)|(<style.*?>.*?</style>)|(<script.*?>.*?</script>)|(<.*?>)"#
let shapes = [
  Shape(
    name: "HTML", piece: "<style>", pattern: markup, options: dotAll, smallCounts: [250, 500],
    scan: { HTMLPatternScan.removingMatches(in: $0).utf8.count }),
  Shape(
    name: "HTML", piece: "<!-- >", pattern: markup, options: dotAll, smallCounts: [250, 500],
    scan: { HTMLPatternScan.removingMatches(in: $0).utf8.count }),
  Shape(
    name: "LATEX", piece: "[latex]",
    pattern: #"\[latex\](.+?)\[/latex\]|\[\$\](.+?)\[/\$\]|\[\$\$\](.+?)\[/\$\$\]"#, options: dotAll,
    smallCounts: [4000, 8000], scan: { LaTeXScan.bodies(in: $0).count }),
  Shape(
    name: "UNDERSCORED_CSS_IMPORTS", piece: "'_",
    pattern: #"(?:@import\s+"(_[^"]*.css)"|'(_[^']*.css)')|(?:url\(\s*"(_[^"]+)"|'(_[^']+)'|(_.+?)\s*\))"#,
    options: [.caseInsensitive], smallCounts: [4000, 8000], scan: { UnderscoredNameScan.cssImports(in: $0).count }),
  Shape(
    name: "UNDERSCORED_REFERENCES", piece: "[sound:_",
    pattern: #"\[sound:(_[^\]]+)\]|"(_[^"]+)"|'(_[^']+)'|\b(?:src|data)=(_[^>]+)"#, options: [],
    smallCounts: [4000, 8000], scan: { UnderscoredNameScan.templateReferences(in: $0).count }),
  Shape(
    name: "TYPE_TAG", piece: "[[type:", pattern: #"\[\[type:[^\]]+\]\]"#, options: [], smallCounts: [4000, 8000],
    scan: { BracketTagScan.removingTypeAnswerTags(in: $0).utf8.count }),
  Shape(
    name: "SOUND_TAG", piece: "[sound:", pattern: #"\[sound:([^\]]+)\]"#, options: [], smallCounts: [4000, 8000],
    scan: { BracketTagScan.removingSoundTags(in: $0).utf8.count }),
  Shape(
    name: "strip_redundant_sections", piece: "<style>", pattern: #"<style>.*?</style>|\[\[type:[^\]]+\]\]"#,
    options: dotAll, smallCounts: [4000, 8000], scan: { BracketTagScan.removingRedundantSections(in: $0).utf8.count }),
]

/// Seconds `work` takes.
func seconds(_ work: () -> Int) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  _ = work()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func format(_ value: Double) -> String { String(format: value < 0.01 ? "%.4f s" : "%.2f s", value) }

print("| Pattern | Input | NSRegularExpression | Scan | Scan, ~1 MB |")
print("| --- | --- | --- | --- | --- |")
for shape in shapes {
  guard let regex = try? NSRegularExpression(pattern: shape.pattern, options: shape.options) else { continue }
  let megabyte = String(repeating: shape.piece, count: 1_000_000 / shape.piece.utf8.count)
  let large = format(seconds { shape.scan(megabyte) })
  for count in shape.smallCounts {
    let text = String(repeating: shape.piece, count: count)
    let icu = seconds { regex.numberOfMatches(in: text, range: NSRange(location: 0, length: (text as NSString).length)) }
    let scan = seconds { shape.scan(text) }
    let input = "`\(shape.piece)` × \(count) (\(text.utf8.count / 1000) KB)"
    print("| \(shape.name) | \(input) | \(format(icu)) | \(format(scan)) | \(large) |")
  }
}
