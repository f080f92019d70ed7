/// The words of an error or a warning, with the settings it names kept as ``DeckSetting``
/// values, so that whoever shows it can name each setting in its own words.
///
/// It is written as a string, a setting interpolated with `setting:`:
///
/// ```swift
/// let message: DeckMessage = "several keys hold records; name one with \(setting: .recordKey)"
/// message.text                        // "…; name one with AppStorageOptions.key"
/// message.text { "--" + $0.rawValue } // "…; name one with --recordKey"
/// ```
public struct DeckMessage: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
  /// A piece of a message.
  public enum Part: Sendable, Hashable {
    /// Words.
    case text(String)
    /// A setting, to be named by whoever shows the message.
    case setting(DeckSetting)
  }

  /// The pieces in order; adjacent words are always one `.text` part.
  public private(set) var parts: [Part] = []

  /// A message of plain words.
  public init(_ text: String) {
    append(text)
  }

  /// A message of plain words.
  public init(stringLiteral value: String) {
    append(value)
  }

  /// A message built by string interpolation.
  public init(stringInterpolation: Interpolation) {
    parts = stringInterpolation.message.parts
  }

  /// The message with each setting named by `name`.
  public func text(naming name: (DeckSetting) -> String) -> String {
    parts.map { part in
      switch part {
      case .text(let text): text
      case .setting(let setting): name(setting)
      }
    }.joined()
  }

  /// The message with each setting named as the library spells it (``DeckSetting/libraryName``).
  public var text: String { text(naming: \.libraryName) }

  /// The same as ``text``.
  public var description: String { text }

  /// The settings the message names, in order.
  public var settings: [DeckSetting] {
    parts.compactMap { part in
      if case .setting(let setting) = part { return setting }
      return nil
    }
  }

  private mutating func append(_ text: String) {
    guard !text.isEmpty else { return }
    if case .text(let previous)? = parts.last {
      parts[parts.count - 1] = .text(previous + text)
    } else {
      parts.append(.text(text))
    }
  }

  private mutating func append(_ message: DeckMessage) {
    for part in message.parts {
      switch part {
      case .text(let text): append(text)
      case .setting: parts.append(part)
      }
    }
  }

  /// Builds a message from a string literal and its interpolations.
  public struct Interpolation: StringInterpolationProtocol {
    fileprivate var message = DeckMessage("")

    /// An empty message.
    public init(literalCapacity: Int, interpolationCount: Int) {}

    /// Adds words.
    public mutating func appendLiteral(_ literal: String) {
      message.append(literal)
    }

    /// Adds a value as `String(describing:)` shows it.
    public mutating func appendInterpolation<Value>(_ value: Value) {
      message.append(String(describing: value))
    }

    /// Adds a setting, named later by whoever shows the message.
    public mutating func appendInterpolation(setting: DeckSetting) {
      message.parts.append(.setting(setting))
    }

    /// Adds another message, its settings kept.
    public mutating func appendInterpolation(_ other: DeckMessage) {
      message.append(other)
    }
  }
}
