import DeckCore
import Foundation
import Testing

@Suite("Progress reporting")
struct ProgressTests {
  final class Recorder: @unchecked Sendable {
    let lock = NSLock()
    var updates: [[ConversionProgress]] = []
    func record(_ phases: [ConversionProgress]) {
      lock.lock()
      updates.append(phases)
      lock.unlock()
    }
  }

  @Test("phases start, advance (throttled) and finish; close sends an empty list once")
  func reporter() {
    let recorder = Recorder()
    let reporter = ProgressReporter(minimumInterval: 3600) { recorder.record($0) }
    reporter.start(.readingNotes, total: 10)
    for _ in 0..<10 { reporter.advance(.readingNotes) }
    #expect(reporter.snapshot == [ConversionProgress(phase: .readingNotes, completed: 10, total: 10)])
    reporter.start(.copyingMedia, total: 3)
    reporter.finish(.readingNotes)
    reporter.close()
    reporter.close()
    reporter.advance(.copyingMedia)
    // start, start, finish and close: the advances fall inside the interval.
    #expect(recorder.updates.count == 4)
    #expect(recorder.updates[1].map(\.phase) == [.readingNotes, .copyingMedia])
    #expect(recorder.updates.last == [])
  }

  @Test("descriptions")
  func descriptions() {
    #expect(
      ConversionProgress(phase: .readingNotes, completed: 12_000, total: 100_000).description
        == "Reading notes 12,000/100,000")
    #expect(ConversionProgress(phase: .copyingMedia, completed: 5, total: nil).description == "Copying media 5")
    #expect(
      ConversionProgress(phase: .unpackingCollection, completed: 12_500_000, total: nil).description
        == "Unpacking the collection 12 MB")
    #expect(
      ConversionProgress(phase: .writingPackage, completed: 420, total: 1000).description == "Writing the package 42%")
  }
}
