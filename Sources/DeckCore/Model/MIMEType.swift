/// MIME types of the media files flashcard decks carry, by file extension.
package enum MIMEType {
  /// The MIME type for a file name's extension, or `application/octet-stream`.
  package static func forFileName(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return "application/octet-stream"
    }
    let ext = name[name.index(after: dot)...].lowercased()
    return byExtension[ext] ?? "application/octet-stream"
  }

  /// Whether files of `mimeType` are compressed already (JPEG, PNG, MP3, MP4, WOFF, …), so that
  /// compressing them again saves a percent or two at most. A file whose name claims such a type
  /// but whose bytes are not is only stored larger for it, never changed.
  package static func isCompressed(_ mimeType: String) -> Bool {
    compressedTypes.contains(mimeType.lowercased())
  }

  private static let compressedTypes: Set<String> = [
    "image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/heic",
    "audio/mpeg", "audio/ogg", "audio/opus", "audio/mp4", "audio/aac", "audio/flac",
    "video/mp4", "video/webm", "video/quicktime", "video/x-matroska", "video/ogg",
    "font/woff", "font/woff2",
  ]

  private static let byExtension: [String: String] = [
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
    "webp": "image/webp", "svg": "image/svg+xml", "bmp": "image/bmp", "tif": "image/tiff",
    "tiff": "image/tiff", "ico": "image/x-icon", "avif": "image/avif", "heic": "image/heic",
    "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "oga": "audio/ogg",
    "opus": "audio/opus", "m4a": "audio/mp4", "aac": "audio/aac", "flac": "audio/flac",
    "spx": "audio/ogg", "mp4": "video/mp4", "webm": "video/webm", "mov": "video/quicktime",
    "mkv": "video/x-matroska", "ogv": "video/ogg", "avi": "video/x-msvideo",
    "css": "text/css", "js": "text/javascript", "html": "text/html", "htm": "text/html",
    "txt": "text/plain", "json": "application/json", "pdf": "application/pdf",
    "ttf": "font/ttf", "otf": "font/otf", "woff": "font/woff", "woff2": "font/woff2",
  ]
}
