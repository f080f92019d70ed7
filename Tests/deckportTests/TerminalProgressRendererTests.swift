import DeckCore
import Foundation
import Testing

@testable import deckport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Terminal progress renderer")
struct TerminalProgressRendererTests {
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
    let output = String(
      decoding: FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
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
