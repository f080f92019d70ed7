/// A small deterministic generator of random numbers (SplitMix64), for tests over random inputs
/// whose failures must be reproducible from the seed.
public struct SplitMix64 {
  public var state: UInt64

  public init(seed: UInt64) { state = seed }

  /// The next number of the sequence.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
