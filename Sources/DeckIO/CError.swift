import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's description of `errno`, for error messages.
enum CError {
  /// The text of the current `errno`, such as `No such file or directory`.
  static func message(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
  }
}
