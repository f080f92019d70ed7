import CZip

/// Texts of libzip error codes, for error messages.
enum LibzipError {
  /// libzip's own text for `code`, such as `Not a zip archive`, including the system error
  /// (`Can't open file: No such file or directory`) when there is one.
  static func message(code: Int32, systemError: Int32 = 0) -> String {
    var error = zip_error_t()
    zip_error_init(&error)
    defer { zip_error_fini(&error) }
    error.zip_err = code
    error.sys_err = systemError
    return String(cString: zip_error_strerror(&error))
  }

  /// libzip's text for `error`.
  static func message(_ error: zip_error_t) -> String {
    var error = error
    return String(cString: zip_error_strerror(&error))
  }

  /// The text of the last error on `archive`.
  static func message(archive: OpaquePointer) -> String {
    String(cString: zip_strerror(archive))
  }

  /// The code of the last error on `archive`.
  static func code(archive: OpaquePointer) -> Int32 {
    zip_error_code_zip(zip_get_error(archive))
  }
}
