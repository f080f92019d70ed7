import CZstd
import DeckCore

/// The streaming zstd decoder behind ``Zstd`` and ``ZstdDecompressingReader``.
///
/// It never relies on a frame's content size (Anki's frames have none), decodes concatenated
/// frames one after another, and stops with an error once output would pass `limit`.
/// Single-threaded: it owns a `ZSTD_DCtx` and an input buffer.
final class ZstdDecoder {
  private let location: SourceLocation
  private let limit: Int64
  private let context: OpaquePointer?
  private let input: UnsafeMutableRawBufferPointer
  private var inputStart = 0
  private var inputEnd = 0
  private var sourceEnded = false
  private var sawInput = false
  /// Whether the last call ended exactly at a frame boundary (ZSTD_decompressStream gave 0).
  private var atFrameBoundary = true
  private var completedFrames = 0
  private var failed: DeckError?
  /// The number of decompressed bytes produced so far.
  private(set) var produced: Int64 = 0

  init(limit: Int64, location: SourceLocation) {
    self.limit = limit
    self.location = location
    self.context = ZSTD_createDCtx()
    self.input = .allocate(byteCount: max(ZSTD_DStreamInSize(), 1 << 12), alignment: 16)
  }

  deinit {
    ZSTD_freeDCtx(context)
    input.deallocate()
  }

  /// Fills the start of `output` with decompressed bytes pulled from `pull`; 0 means the end.
  ///
  /// `pull` fills its buffer with compressed bytes and returns how many, 0 at the end.
  func read(
    into output: UnsafeMutableRawBufferPointer,
    pull: (UnsafeMutableRawBufferPointer) throws -> Int
  ) throws -> Int {
    if let failed { throw failed }
    guard let base = output.baseAddress, output.count > 0 else { return 0 }
    guard let context else {
      throw fail(.corrupt, "cannot decompress: zstd could not allocate a decoder")
    }
    // Never let zstd write more than one byte past the limit, so passing it is detected
    // without producing the excess.
    let allowance = limit - produced
    let capacity = allowance < Int64(output.count) ? Int(max(allowance, 0)) + 1 : output.count
    var out = ZSTD_outBuffer(dst: base, size: capacity, pos: 0)
    while out.pos == 0 {
      if inputStart == inputEnd && !sourceEnded {
        let count = try pull(input)
        if count == 0 {
          sourceEnded = true
        } else {
          inputStart = 0
          inputEnd = count
          sawInput = true
        }
      }
      if inputStart == inputEnd && sourceEnded {
        if !sawInput {
          throw fail(.wrongFormat, "not a zstd frame (the data is empty)")
        }
        if atFrameBoundary { return 0 }
        // The input is used up inside a frame: flush what zstd still holds, if anything.
        var empty = ZSTD_inBuffer(src: input.baseAddress, size: 0, pos: 0)
        let result = ZSTD_decompressStream(context, &out, &empty)
        try check(result)
        atFrameBoundary = result == 0
        if out.pos == 0 && !atFrameBoundary {
          throw fail(.corrupt, "zstd frame is truncated")
        }
        continue
      }
      var `in` = ZSTD_inBuffer(src: input.baseAddress.map { UnsafeRawPointer($0) }, size: inputEnd, pos: inputStart)
      let result = ZSTD_decompressStream(context, &out, &`in`)
      inputStart = `in`.pos
      try check(result)
      atFrameBoundary = result == 0
      if atFrameBoundary { completedFrames += 1 }
    }
    produced += Int64(out.pos)
    if produced > limit {
      throw fail(.limitExceeded, "the decompressed data is larger than the limit of \(limit) bytes")
    }
    return out.pos
  }

  /// Throws the zstd error `result` holds, if any.
  private func check(_ result: Int) throws {
    guard ZSTD_isError(result) != 0 else { return }
    let name = String(cString: ZSTD_getErrorName(result))
    if ZSTD_getErrorCode(result) == ZSTD_error_prefix_unknown {
      if completedFrames == 0 && produced == 0 {
        throw fail(.wrongFormat, "not a zstd frame (\(name))")
      }
      throw fail(.corrupt, "unexpected data after the zstd frame (\(name))")
    }
    throw fail(.corrupt, "zstd data is corrupt (\(name))")
  }

  /// Records `kind`/`message` so later reads fail the same way, and returns it to throw.
  private func fail(_ kind: DeckError.Kind, _ message: String) -> DeckError {
    let error = DeckError(
      kind, at: location, message,
      details: [
        "zstd: \(CountedNoun.phrase(completedFrames, "complete frame")) before the problem; \(produced) bytes decompressed"
      ])
    failed = error
    return error
  }
}
