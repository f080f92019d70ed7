import CZstd
import DeckCore
import Foundation

/// Streaming zstd compression into one frame without a declared content size, as Anki's own
/// encoder writes.
///
/// ```swift
/// let compressor = ZstdCompressor(level: 3)
/// try compressor.compress(chunk) { output.append(contentsOf: $0) }
/// try compressor.finish { output.append(contentsOf: $0) }
/// ```
///
/// After ``finish(into:)`` the compressor starts a new frame. Every call holds one lock.
package final class ZstdCompressor: @unchecked Sendable {
  /// Where errors are reported.
  package let location: SourceLocation
  private let context: OpaquePointer?
  private let output: UnsafeMutableRawBufferPointer
  private let lock = NSLock()
  private var setupError: String?

  /// Creates a compressor at `level` (0 means zstd's default, 3; 1 to 19 trade speed for size).
  ///
  /// With `workers` above 0, zstd compresses on that many threads of its own (as Anki does for
  /// collections above 10 MiB), in jobs of `jobSize` bytes (0: zstd's default, which for level
  /// 3 is 8 MiB and holds some 16 MiB per thread); the frame is the same kind either way, and
  /// its bytes do not depend on the number of threads. A libzstd built without threads ignores
  /// both.
  package init(
    level: Int32 = 3, workers: Int32 = 0, jobSize: Int32 = 0, location: SourceLocation = SourceLocation(file: "(zstd)")
  ) {
    self.location = location
    self.context = ZSTD_createCCtx()
    self.output = .allocate(byteCount: max(ZSTD_CStreamOutSize(), 1 << 16), alignment: 16)
    if let context {
      let result = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
      if ZSTD_isError(result) != 0 { setupError = String(cString: ZSTD_getErrorName(result)) }
      if workers > 0 {
        _ = ZSTD_CCtx_setParameter(context, ZSTD_c_nbWorkers, workers)
        if jobSize > 0 { _ = ZSTD_CCtx_setParameter(context, ZSTD_c_jobSize, jobSize) }
      }
    } else {
      setupError = "zstd could not allocate an encoder"
    }
  }

  deinit {
    ZSTD_freeCCtx(context)
    output.deallocate()
  }

  /// Compresses `bytes`, handing any output that is ready to `sink`.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` when zstd fails, and the errors of `sink`.
  package func compress(_ bytes: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    guard bytes.count > 0 else { return }
    lock.lock()
    defer { lock.unlock() }
    var input = ZSTD_inBuffer(src: bytes.baseAddress, size: bytes.count, pos: 0)
    while input.pos < input.size {
      _ = try step(&input, ZSTD_e_continue, into: sink)
    }
  }

  /// Ends the frame, handing the rest of the output to `sink`.
  ///
  /// - Throws: ``DeckError/Kind/writeFailed`` when zstd fails, and the errors of `sink`.
  package func finish(into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    lock.lock()
    defer { lock.unlock() }
    var input = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
    while try step(&input, ZSTD_e_end, into: sink) != 0 {}
  }

  /// One `ZSTD_compressStream2` call; returns zstd's count of bytes still to flush.
  private func step(
    _ input: inout ZSTD_inBuffer, _ directive: ZSTD_EndDirective,
    into sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> Int {
    if let setupError {
      throw DeckError(.writeFailed, at: location, "zstd compression failed (\(setupError))")
    }
    guard let context else {
      throw DeckError(.writeFailed, at: location, "zstd compression failed (no encoder)")
    }
    var out = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
    let remaining = ZSTD_compressStream2(context, &out, &input, directive)
    if ZSTD_isError(remaining) != 0 {
      ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
      throw DeckError(
        .writeFailed, at: location,
        "zstd compression failed (\(String(cString: ZSTD_getErrorName(remaining))))")
    }
    if out.pos > 0 {
      try sink(UnsafeRawBufferPointer(rebasing: output[0..<out.pos]))
    }
    return remaining
  }
}
