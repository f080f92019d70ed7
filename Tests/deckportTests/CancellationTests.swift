import DeckIO
import DeckKit
import DeckTestSupport
import Foundation
import Testing

/// An app that cancels the task of an `async` conversion gets `CancellationError` from
/// wherever the work was: reading, writing rows, compressing, copying media, writing the
/// archive. The output is never put in place, nothing half written stays beside it, and an
/// existing output (an app's store) is left as it was.
@Suite("Cancelling a conversion")
struct CancellationTests {
  /// Cancels a task once it is known and the moment to cancel has come (in either order).
  final class Canceller: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<ConversionReport, any Error>?
    private var fired = false

    func set(_ task: Task<ConversionReport, any Error>) {
      lock.lock()
      self.task = task
      if fired { task.cancel() }
      lock.unlock()
    }

    func fire() {
      lock.lock()
      fired = true
      task?.cancel()
      lock.unlock()
    }

    var hasFired: Bool {
      lock.lock()
      defer { lock.unlock() }
      return fired
    }
  }

  /// One conversion, cancelled when `phase` starts.
  struct Case: Sendable, CustomTestStringConvertible {
    var input: String
    var output: String
    var format: FormatName
    var phase: ConversionPhase
    var testDescription: String { "\(input) → \(format.rawValue), at \(phase.label.lowercased())" }
  }

  static let package = "anki/latest.colpkg"

  static let cases: [Case] = [
    Case(input: package, output: "out.apkg", format: .apkg, phase: .unpackingCollection),
    Case(input: package, output: "out.apkg", format: .apkg, phase: .readingNotes),
    Case(input: package, output: "out.apkg", format: .apkg, phase: .readingReviews),
    Case(input: package, output: "out.apkg", format: .apkg, phase: .writingNotes),
    Case(input: package, output: "out.apkg", format: .apkg, phase: .writingReviews),
    Case(input: package, output: "out.apkg", format: .apkg, phase: .compressingCollection),
    Case(input: package, output: "out.apkg", format: .apkg, phase: .copyingMedia),
    Case(input: package, output: "out.apkg", format: .apkg, phase: .writingPackage),
    Case(input: package, output: "out.apkg", format: .apkgModern, phase: .compressingCollection),
    Case(input: package, output: "out.apkg", format: .apkgModern, phase: .copyingMedia),
    Case(input: package, output: "out.colpkg", format: .colpkg, phase: .writingCards),
    Case(input: package, output: "out.json", format: .json, phase: .writingNotes),
    Case(input: package, output: "out.json", format: .json, phase: .writingReviews),
    Case(input: "deck.json", output: "out.apkg", format: .apkgModern, phase: .checkingJSON),
    Case(input: "deck.json", output: "out.apkg", format: .apkgModern, phase: .readingCards),
    Case(input: "deck.json", output: "out.apkg", format: .apkgModern, phase: .checkingMedia),
    Case(input: package, output: "out.csv", format: .csv, phase: .writingNotes),
    Case(input: package, output: "out", format: .jsonDir, phase: .readingReviews),
    Case(input: package, output: "out", format: .crowdanki, phase: .readingReviews),
  ]

  @Test("cancelled, nothing is left", arguments: cases)
  func cancelled(_ item: Case) async throws {
    let scratch = try TemporaryDirectory()
    let input = try Self.input(item.input, in: scratch)
    let output = URL(filePath: scratch.path(for: item.output))
    let canceller = Canceller()
    let reporter = ProgressReporter(minimumInterval: 0) { phases in
      if phases.contains(where: { $0.phase == item.phase }) { canceller.fire() }
    }
    let options = ConversionOptions(to: item.format, progress: reporter)
    let task = Task { try await DeckConverter().convert(input, to: output, options: options) }
    canceller.set(task)
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(canceller.hasFired, "the phase never started")
    #expect(try FolderContents.names(in: scratch.path) == [input.lastPathComponent])
    #expect(!TemporaryItems.registered.contains { $0.hasPrefix(scratch.path + "/") })
  }

  @Test("reading a json-dir folder stops between its files when its task is cancelled")
  func folderReadingCancelled() async throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.path(for: "deck")
    _ = try DeckConverter().convert(
      input: Fixtures.path(Self.package), output: folder, options: ConversionOptions(to: .jsonDir))
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try DeckLoader().load(path: folder).collection.notes.count
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(try DeckLoader().load(path: folder).collection.notes.count > 0)
  }

  @Test("the same conversion runs to the end when nobody cancels it", arguments: [cases[0], cases[13]])
  func notCancelled(_ item: Case) async throws {
    let scratch = try TemporaryDirectory()
    let input = try Self.input(item.input, in: scratch)
    let output = URL(filePath: scratch.path(for: item.output))
    let report = try await DeckConverter().convert(input, to: output, options: ConversionOptions(to: item.format))
    #expect(report.summary.notes > 0)
    #expect(try FolderContents.names(in: scratch.path) == [input.lastPathComponent, item.output].sorted())
  }

  @Test("an app's store is left as it was, with no backup beside it, when the migration into it is cancelled")
  func storeUntouched() async throws {
    let scratch = try TemporaryDirectory()
    let store = scratch.path(for: "neomnemo.store")
    try FileManager.default.copyItem(atPath: Fixtures.path("app/neomnemo.store"), toPath: store)
    try FileManager.default.copyItem(
      atPath: Fixtures.path("app/.neomnemo_SUPPORT"), toPath: scratch.path(for: ".neomnemo_SUPPORT"))
    let before = try Self.snapshot(of: scratch.path)
    let canceller = Canceller()
    let reporter = ProgressReporter(minimumInterval: 0) { phases in
      if phases.contains(where: { $0.phase == .readingReviews }) { canceller.fire() }
    }
    var formats = FormatOptions()
    formats[AppStorageOptions.self].profile = .named(try #require(AppRecordProfile.named("neomnemo")))
    let options = ConversionOptions(backup: true, formats: formats, progress: reporter)
    let input = URL(filePath: Fixtures.path("anki/legacy2_sched.apkg"))
    let task = Task { try await DeckConverter().convert(input, to: URL(filePath: store), options: options) }
    canceller.set(task)
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(try Self.snapshot(of: scratch.path) == before)
  }

  @Test("comparing two decks stops when its task is cancelled")
  func comparisonCancelled() async throws {
    let deck = try DeckLoader().load(path: Fixtures.path(Self.package))
    #expect(!deck.collection.media.isEmpty)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try DeckDifference(from: deck, to: deck).isEmpty
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(try DeckDifference(from: deck, to: deck).isEmpty)
  }

  @Test("a batch stops between files: those finished stay, the rest are not started")
  func batch() throws {
    let scratch = try TemporaryDirectory()
    let inputs = Fixtures.ankiPackages.prefix(4).map { Fixtures.path($0) }
    let folder = scratch.path(for: "out")
    let scope = Cancellation.Scope()
    let finished = FinishedItems()
    #expect(throws: CancellationError.self) {
      try Cancellation.$scope.withValue(scope) {
        _ = try BatchConverter(jobs: 1).convert(
          inputs: inputs, into: folder, options: ConversionOptions(to: .json),
          onFinish: { item in
            finished.add(item)
            scope.cancel()
          })
      }
    }
    let done = finished.items
    #expect(done.count == 1 && done.allSatisfy(\.succeeded))
    #expect(
      try FolderContents.names(in: folder) == done.compactMap { $0.output.map { URL(filePath: $0).lastPathComponent } })
  }

  /// The items a batch reported finished.
  final class FinishedItems: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [BatchConversionItem] = []

    func add(_ item: BatchConversionItem) {
      lock.lock()
      list.append(item)
      lock.unlock()
    }

    var items: [BatchConversionItem] {
      lock.lock()
      defer { lock.unlock() }
      return list
    }
  }

  /// The input `name`: a fixture, or `deck.json` (the collection package converted to the
  /// JSON deck), placed in `scratch`.
  static func input(_ name: String, in scratch: TemporaryDirectory) throws -> URL {
    let path = scratch.path(for: URL(filePath: name).lastPathComponent)
    if name == "deck.json" {
      _ = try DeckConverter().convert(input: Fixtures.path(package), output: path)
    } else {
      try FileManager.default.copyItem(atPath: Fixtures.path(name), toPath: path)
    }
    return URL(filePath: path)
  }

  /// Every file below `folder` (hidden ones included) with its bytes.
  static func snapshot(of folder: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let relative = enumerator?.nextObject() as? String {
      let path = folder + "/" + relative
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files[relative] = try Data(contentsOf: URL(filePath: path))
      }
    }
    return files
  }
}
