import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The platform's own SHA-1, when the process already has it: OpenSSL's `libcrypto` on Linux
/// (libzip links it, so every deckport process has it loaded) or CommonCrypto on Apple systems.
/// These use the processor's SHA instructions where it has them, and hash media about six
/// times faster than the portable code in ``SHA1``, which is used when neither is present.
///
/// The functions are looked up by name in the process (`dlsym`); nothing is loaded that is not
/// loaded already, and no library is needed to build.
final class SystemSHA1Context: @unchecked Sendable {
  /// `SHA1_Init`, `SHA1_Update`, `SHA1_Final` (OpenSSL) or their `CC_` twins (CommonCrypto).
  struct Functions: @unchecked Sendable {
    let initialize: @convention(c) (UnsafeMutableRawPointer) -> Int32
    let update: @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer, Int) -> Int32
    let finish: @convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutableRawPointer) -> Int32
    /// The largest length one `update` call takes (CommonCrypto's is 32 bits).
    let maximumUpdate: Int
  }

  /// Room for the library's context (OpenSSL's `SHA_CTX` and CommonCrypto's `CC_SHA1_CTX` are
  /// 96 bytes).
  static let contextSize = 256

  /// The functions, or nil when the process has no system SHA-1 (or `DECKPORT_PORTABLE_SHA1`
  /// is set, to test the portable code).
  static let functions: Functions? = {
    if getenv("DECKPORT_PORTABLE_SHA1") != nil { return nil }
    #if canImport(Darwin)
      let names = ("CC_SHA1_Init", "CC_SHA1_Update", "CC_SHA1_Final", Int(UInt32.max))
    #else
      let names = ("SHA1_Init", "SHA1_Update", "SHA1_Final", Int.max)
    #endif
    #if canImport(Darwin)
      let scope = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT on Apple systems
    #else
      let scope: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT on Linux
    #endif
    guard let initialize = dlsym(scope, names.0), let update = dlsym(scope, names.1),
      let finish = dlsym(scope, names.2)
    else { return nil }
    return Functions(
      initialize: unsafeBitCast(initialize, to: (@convention(c) (UnsafeMutableRawPointer) -> Int32).self),
      update: unsafeBitCast(
        update, to: (@convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer, Int) -> Int32).self),
      finish: unsafeBitCast(
        finish, to: (@convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutableRawPointer) -> Int32).self),
      maximumUpdate: names.3)
  }()

  private let functions: Functions
  private let context: UnsafeMutableRawPointer

  /// A fresh context, or nil when the process has no system SHA-1.
  init?() {
    guard let functions = Self.functions else { return nil }
    self.functions = functions
    context = .allocate(byteCount: Self.contextSize, alignment: 16)
    context.initializeMemory(as: UInt8.self, repeating: 0, count: Self.contextSize)
    guard functions.initialize(context) == 1 else {
      context.deallocate()
      return nil
    }
  }

  private init(copying other: SystemSHA1Context) {
    functions = other.functions
    context = .allocate(byteCount: Self.contextSize, alignment: 16)
    context.copyMemory(from: other.context, byteCount: Self.contextSize)
  }

  deinit { context.deallocate() }

  /// An independent copy (both contexts are plain structs, so copying the bytes copies them).
  func copy() -> SystemSHA1Context { SystemSHA1Context(copying: self) }

  func update(_ bytes: UnsafeRawBufferPointer) {
    guard var base = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let count = min(remaining, functions.maximumUpdate)
      _ = functions.update(context, base, count)
      base += count
      remaining -= count
    }
  }

  func finalize() -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 20)
    digest.withUnsafeMutableBufferPointer { buffer in
      _ = functions.finish(buffer.baseAddress!, context)
    }
    return digest
  }
}
