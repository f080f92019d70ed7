import DeckCore
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    #expect(ConversionProgress(phase: .readingNotes, completed: 12_000, total: 100_000).description == "Reading notes 12,000/100,000")
    #expect(ConversionProgress(phase: .copyingMedia, completed: 5, total: nil).description == "Copying media 5")
    #expect(ConversionProgress(phase: .unpackingCollection, completed: 12_500_000, total: nil).description == "Unpacking the collection 12 MB")
    #expect(ConversionProgress(phase: .writingPackage, completed: 420, total: 1000).description == "Writing the package 42%")
  }

  @Test("the renderer is silent when standard error is not a terminal")
  func notATerminal() {
    if isatty(STDERR_FILENO) == 0 {
      #expect(TerminalProgressRenderer.forStandardError() == nil)
    }
  }

  @Test("the renderer draws one line with \\r, after its delay, and erases it at the end")
  func renderer() throws {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    let renderer = TerminalProgressRenderer(descriptor: descriptors[1], delay: 0, columns: 40)
    renderer.reporter.start(.writingCards, total: 200_000)
    renderer.reporter.set(.writingCards, completed: 120_000)
    renderer.reporter.start(.copyingMedia, total: 400)
    renderer.printAbove {}
    renderer.finish()
    close(descriptors[1])
    let output = String(decoding: FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
    #expect(output.hasPrefix("\rWriting cards 0/200,000\u{1B}[K"))
    #expect(output.contains("\rWriting cards 0/200,000 · Copying media 0/400\u{1B}[K") || output.contains("…"))
    #expect(output.hasSuffix("\r\u{1B}[K"))
    #expect(!output.contains("\n"))
  }

  @Test("nothing is drawn before the delay")
  func delay() throws {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    let renderer = TerminalProgressRenderer(descriptor: descriptors[1], delay: 3600)
    renderer.reporter.start(.readingNotes, total: 5)
    renderer.finish()
    close(descriptors[1])
    let output = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true).readDataToEndOfFile()
    #expect(output.isEmpty)
  }
}
