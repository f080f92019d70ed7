import DeckCore
import DeckIO
import Foundation
import JSONCore

/// Turns an option group of the model into its schema-11 `dconf` entry.
///
/// Groups read from a schema-11 collection keep their JSON text and are written as they are.
/// Groups read from a schema-18 collection hold the protobuf `DeckConfig.Config` blob; they are
/// converted key by key the way Anki itself downgrades them (`rslib/src/deckconfig/schema11.rs`,
/// `impl From<DeckConfig> for DeckConfSchema11`), so Anki reads the same settings back. The one
/// deliberate difference: Anki truncates `initial_ease × 1000` to an integer (2.3 becomes 2299),
/// deckport rounds it (2300), which reads back as the ease that was stored. Anything that has no
/// legacy key, or a value the legacy key cannot hold, is reported with the group's name.
enum DeckOptionsConversion {
  /// The settings of `DeckConfig.Config`, field by field; the initial values are Anki's
  /// defaults for a new option group.
  struct Settings {
    var learnSteps: [Float] = [1, 10]
    var relearnSteps: [Float] = [10]
    var fsrsParams4: [Float] = []
    var fsrsParams5: [Float] = []
    var fsrsParams6: [Float] = []
    var easyDaysPercentages: [Float] = Array(repeating: 1, count: 7)
    var newPerDay: UInt32 = 20
    var reviewsPerDay: UInt32 = 200
    var newPerDayMinimum: UInt32 = 0
    var initialEase: Float = 2.5
    var easyMultiplier: Float = 1.3
    var hardMultiplier: Float = 1.2
    var lapseMultiplier: Float = 0
    var intervalMultiplier: Float = 1
    var maximumReviewInterval: UInt32 = 36500
    var minimumLapseInterval: UInt32 = 1
    var graduatingIntervalGood: UInt32 = 1
    var graduatingIntervalEasy: UInt32 = 4
    var newCardInsertOrder: Int64 = 0
    var newCardGatherPriority: Int64 = 0
    var newCardSortOrder: Int64 = 0
    var newMix: Int64 = 0
    var reviewOrder: Int64 = 0
    var interdayLearningMix: Int64 = 0
    var leechAction: Int64 = 1
    var leechThreshold: UInt32 = 8
    var disableAutoplay = false
    var capAnswerTimeToSecs: UInt32 = 60
    var showTimer = false
    var stopTimerOnAnswer = false
    var secondsToShowQuestion: Float = 0
    var secondsToShowAnswer: Float = 0
    var questionAction: Int64 = 0
    var answerAction: Int64 = 0
    var waitForAudio = true
    var skipQuestionWhenReplayingAnswer = false
    var buryNew = false
    var buryReviews = false
    var buryInterdayLearning = false
    var desiredRetention: Float = 0.9
    var ignoreRevlogsBeforeDate = ""
    var historicalRetention: Float = 0.9
    var paramSearch = ""
    /// Field 255: legacy JSON keys Anki keeps without interpreting them.
    var other = Data()

    /// Every value at its protobuf default (zero, false, empty), the state a decoded blob
    /// starts from.
    static var protobufDefaults: Settings {
      var settings = Settings()
      settings.learnSteps = []
      settings.relearnSteps = []
      settings.easyDaysPercentages = []
      settings.newPerDay = 0
      settings.reviewsPerDay = 0
      settings.initialEase = 0
      settings.easyMultiplier = 0
      settings.hardMultiplier = 0
      settings.intervalMultiplier = 0
      settings.maximumReviewInterval = 0
      settings.minimumLapseInterval = 0
      settings.graduatingIntervalGood = 0
      settings.graduatingIntervalEasy = 0
      settings.leechAction = 0
      settings.leechThreshold = 0
      settings.capAnswerTimeToSecs = 0
      settings.waitForAudio = false
      settings.desiredRetention = 0
      settings.historicalRetention = 0
      return settings
    }
  }

  /// Top-level legacy keys Anki drops from the `other` blob because it writes them itself.
  static let reservedKeys: Set<String> = [
    "id", "newSortOrder", "replayq", "newPerDayMinimum", "usn", "autoplay", "dyn", "maxTaken",
    "reviewOrder", "buryInterdayLearning", "newMix", "mod", "timer", "name",
    "interdayLearningMix", "newGatherPriority", "fsrsWeights", "fsrsParams5", "fsrsParams6",
    "desiredRetention", "stopTimerOnAnswer", "secondsToShowQuestion", "secondsToShowAnswer",
    "questionAction", "answerAction", "waitForAudio", "sm2Retention", "weightSearch",
    "ignoreRevlogsBeforeDate", "easyDaysPercentages",
  ]
  static let reservedNewKeys: Set<String> = ["order", "delays", "bury", "perDay", "initialFactor", "ints"]
  static let reservedRevKeys: Set<String> = ["maxIvl", "hardFactor", "ease4", "ivlFct", "perDay", "bury"]
  static let reservedLapseKeys: Set<String> = ["leechFails", "mult", "leechAction", "delays", "minInt"]

  /// The keys Anki's importer requires in a `dconf` entry and its three sub-objects.
  static let requiredKeys = ["id", "mod", "name", "usn", "maxTaken", "autoplay", "timer", "new", "rev", "lapse"]
  static let requiredSubKeys: [String: [String]] = [
    "new": ["delays", "initialFactor", "ints", "order", "perDay"],
    "rev": ["ease4", "ivlFct", "maxIvl", "perDay"],
    "lapse": ["delays", "leechAction", "leechFails", "minInt", "mult"],
  ]

  // MARK: - Entry points

  /// The `dconf` entry for `options`, its ``DeckOptions/ankiProperties`` laid over it, and what
  /// could not be carried over.
  ///
  /// - Throws: ``DeckError/Kind/corrupt`` at `location` when the stored settings are not a JSON
  ///   object or not a valid protobuf message.
  static func entry(for options: DeckOptions, location: SourceLocation) throws
    -> (json: JSONValue, warnings: [Diagnostic])
  {
    let itemLocation = location.item(label(options))
    var entry: (json: JSONValue, warnings: [Diagnostic])
    switch options.settings {
    case .anki18Protobuf(let blob):
      var warnings: [Diagnostic] = []
      let settings = try decode(blob, options: options, location: itemLocation, warnings: &warnings)
      let json = schema11JSON(
        settings, id: options.id, name: options.name, modificationTime: options.modificationTime,
        options: options, location: itemLocation, warnings: &warnings)
      entry = (json, warnings)
    case .anki11JSON(let text):
      entry = try legacyEntry(text, options: options, location: itemLocation)
    }
    if !options.ankiProperties.isEmpty, let members = entry.json.members {
      entry.json = Schema11Properties.object(members, with: options.ankiProperties, of: .optionGroup)
    }
    return entry
  }

  /// Anki's default option group ("Default", id 1 unless given), as a new collection has it.
  static func defaultEntry(id: Int64 = 1, name: String = "Default") -> JSONValue {
    var ignored: [Diagnostic] = []
    let options = DeckOptions(id: id, name: name, settings: .anki11JSON("{}"))
    return schema11JSON(
      Settings(), id: id, name: name, modificationTime: 0, options: options,
      location: SourceLocation(file: ""), warnings: &ignored)
  }

  static func label(_ options: DeckOptions) -> String {
    "option group '\(options.name)' (id \(options.id))"
  }

  // MARK: - Schema 11 JSON text

  /// Checks a stored JSON entry: it must be an object; its `id`, `name` and `mod` follow the
  /// model; keys the importer requires and that are missing get Anki's default, reported.
  private static func legacyEntry(_ text: String, options: DeckOptions, location: SourceLocation)
    throws -> (json: JSONValue, warnings: [Diagnostic])
  {
    guard let parsed = try? JSONParser.parse(Array(text.utf8), options: .anki),
      var object = parsed.foundationObject as? [String: Any]
    else {
      throw DeckError(
        .corrupt, at: location,
        "the settings are not a JSON object, so Anki could not read them")
    }
    var changed = false
    func setIfDifferent(_ key: String, _ value: Any, same: (Any?) -> Bool) {
      if !same(object[key]) {
        object[key] = value
        changed = true
      }
    }
    setIfDifferent("id", NSNumber(value: options.id)) { ($0 as? NSNumber)?.int64Value == options.id }
    setIfDifferent("name", options.name) { ($0 as? String) == options.name }
    setIfDifferent("mod", NSNumber(value: options.modificationTime)) {
      ($0 as? NSNumber)?.int64Value == options.modificationTime
    }
    var warnings: [Diagnostic] = []
    guard
      let defaults = defaultEntry().foundationObject as? [String: Any]
    else { return (parsed, warnings) }
    var filled: [String] = []
    for key in requiredKeys where object[key] == nil || object[key] is NSNull {
      object[key] = defaults[key]
      filled.append(key)
    }
    for (sub, keys) in requiredSubKeys.sorted(by: { $0.key < $1.key }) {
      guard var subObject = object[sub] as? [String: Any], let subDefaults = defaults[sub] as? [String: Any]
      else {
        if !filled.contains(sub) {
          object[sub] = defaults[sub]
          filled.append(sub)
        }
        continue
      }
      for key in keys where subObject[key] == nil || subObject[key] is NSNull {
        subObject[key] = subDefaults[key]
        filled.append("\(sub).\(key)")
      }
      object[sub] = subObject
    }
    if !filled.isEmpty {
      changed = true
      warnings.append(
        Diagnostic(
          .deckOptionsIncomplete, at: location,
          "the settings lack \(filled.map { "'\($0)'" }.joined(separator: ", ")), which Anki requires; Anki's defaults are written"
        ))
    }
    return (changed ? JSONValue.fromFoundation(object) : parsed, warnings)
  }

  // MARK: - Protobuf decoding

  /// The fields of `DeckConfig.Config` that hold FSRS parameters (`fsrs_params_4`, `_5`, `_6`),
  /// and their schema-11 keys.
  static let fsrsParameterFields: Set<Int> = [3, 5, 6]
  static let fsrsParameterKeys: Set<String> = ["fsrsWeights", "fsrsParams5", "fsrsParams6"]

  /// The repeated-float fields of `DeckConfig.Config`, by field number.
  private static let floatListFields: [Int: WritableKeyPath<Settings, [Float]> & Sendable] = [
    1: \.learnSteps, 2: \.relearnSteps, 3: \.fsrsParams4, 4: \.easyDaysPercentages, 5: \.fsrsParams5,
    6: \.fsrsParams6,
  ]

  /// The settings in a `DeckConfig.Config` blob; unknown fields are reported and skipped.
  static func decode(
    _ blob: Data, options: DeckOptions, location: SourceLocation, warnings: inout [Diagnostic]
  ) throws -> Settings {
    var reader = ProtobufReader(blob, location: location.item("\(label(options)): settings"))
    var s = Settings.protobufDefaults
    while let field = try reader.nextField() {
      let wire = field.wireType
      // A repeated float comes packed, or one value at a time.
      if let list = floatListFields[field.number], wire == .lengthDelimited || wire == .fixed32 {
        if wire == .lengthDelimited {
          s[keyPath: list] += try reader.readPackedFloats()
        } else {
          s[keyPath: list].append(try reader.readFloat())
        }
        continue
      }
      switch (field.number, wire) {
      case (9, .varint): s.newPerDay = try reader.readUInt32()
      case (10, .varint): s.reviewsPerDay = try reader.readUInt32()
      case (11, .fixed32): s.initialEase = try reader.readFloat()
      case (12, .fixed32): s.easyMultiplier = try reader.readFloat()
      case (13, .fixed32): s.hardMultiplier = try reader.readFloat()
      case (14, .fixed32): s.lapseMultiplier = try reader.readFloat()
      case (15, .fixed32): s.intervalMultiplier = try reader.readFloat()
      case (16, .varint): s.maximumReviewInterval = try reader.readUInt32()
      case (17, .varint): s.minimumLapseInterval = try reader.readUInt32()
      case (18, .varint): s.graduatingIntervalGood = try reader.readUInt32()
      case (19, .varint): s.graduatingIntervalEasy = try reader.readUInt32()
      case (20, .varint): s.newCardInsertOrder = Int64(try reader.readInt32())
      case (21, .varint): s.leechAction = Int64(try reader.readInt32())
      case (22, .varint): s.leechThreshold = try reader.readUInt32()
      case (23, .varint): s.disableAutoplay = try reader.readBool()
      case (24, .varint): s.capAnswerTimeToSecs = try reader.readUInt32()
      case (25, .varint): s.showTimer = try reader.readBool()
      case (26, .varint): s.skipQuestionWhenReplayingAnswer = try reader.readBool()
      case (27, .varint): s.buryNew = try reader.readBool()
      case (28, .varint): s.buryReviews = try reader.readBool()
      case (29, .varint): s.buryInterdayLearning = try reader.readBool()
      case (30, .varint): s.newMix = Int64(try reader.readInt32())
      case (31, .varint): s.interdayLearningMix = Int64(try reader.readInt32())
      case (32, .varint): s.newCardSortOrder = Int64(try reader.readInt32())
      case (33, .varint): s.reviewOrder = Int64(try reader.readInt32())
      case (34, .varint): s.newCardGatherPriority = Int64(try reader.readInt32())
      case (35, .varint): s.newPerDayMinimum = try reader.readUInt32()
      case (36, .varint): s.questionAction = Int64(try reader.readInt32())
      case (37, .fixed32): s.desiredRetention = try reader.readFloat()
      case (38, .varint): s.stopTimerOnAnswer = try reader.readBool()
      case (40, .fixed32): s.historicalRetention = try reader.readFloat()
      case (41, .fixed32): s.secondsToShowQuestion = try reader.readFloat()
      case (42, .fixed32): s.secondsToShowAnswer = try reader.readFloat()
      case (43, .varint): s.answerAction = Int64(try reader.readInt32())
      case (44, .varint): s.waitForAudio = try reader.readBool()
      case (45, .lengthDelimited): s.paramSearch = try reader.readString()
      case (46, .lengthDelimited): s.ignoreRevlogsBeforeDate = try reader.readString()
      case (255, .lengthDelimited): s.other = try reader.readLengthDelimited()
      default:
        try reader.skip(wire)
        warnings.append(
          Diagnostic(
            .deckOptionsUnmapped, at: location,
            "setting field \(field.number) of the option group is unknown to the legacy format and is left out"))
      }
    }
    return s
  }

  // MARK: - Schema 11 entry from settings

  /// The legacy JSON entry, keys in the order Anki writes them.
  static func schema11JSON(
    _ s: Settings, id: Int64, name: String, modificationTime: Int64, options: DeckOptions,
    location: SourceLocation, warnings: inout [Diagnostic]
  ) -> JSONValue {
    func report(_ message: String) {
      warnings.append(Diagnostic(.deckOptionsChanged, at: location, message))
    }
    func floats(_ values: [Float]) -> JSONValue { .array(values.map(JSONValue.float)) }
    func uint16(_ value: UInt32, _ what: String) -> JSONValue {
      if value > UInt32(UInt16.max) {
        report("\(what) \(value) is larger than the legacy format holds; \(UInt16.max) is written")
        return .int(Int64(UInt16.max))
      }
      return .int(Int64(value))
    }
    for (value, what) in [
      (s.learnSteps, "learning steps"), (s.relearnSteps, "relearning steps"),
      (s.fsrsParams4, "FSRS parameters"), (s.fsrsParams5, "FSRS parameters"),
      (s.fsrsParams6, "FSRS parameters"), (s.easyDaysPercentages, "easy days percentages"),
    ] where value.contains(where: { !$0.isFinite }) {
      report("\(what) hold a value that is not a finite number; 0 is written in its place")
    }
    for (value, what) in [
      (s.initialEase, "initial ease"), (s.easyMultiplier, "easy bonus"), (s.hardMultiplier, "hard interval"),
      (s.lapseMultiplier, "new interval"), (s.intervalMultiplier, "interval modifier"),
      (s.desiredRetention, "desired retention"), (s.historicalRetention, "historical retention"),
      (s.secondsToShowQuestion, "seconds to show question"), (s.secondsToShowAnswer, "seconds to show answer"),
    ] where !value.isFinite {
      report("\(what) is not a finite number; 0 is written in its place")
    }

    /// `value` when it is one of `known`; otherwise Anki's `fallback`, named `fallbackName`, reported.
    func known(
      _ value: Int64, in known: ClosedRange<Int64>, _ what: String, else fallback: Int64, _ fallbackName: String
    ) -> Int64 {
      if known.contains(value) { return value }
      report("\(what) \(value) is unknown; '\(fallbackName)' is written, as Anki does")
      return fallback
    }
    // new.order: insert order Due (0) is legacy 1, Random (1) is legacy 0.
    let order = 1 - known(s.newCardInsertOrder, in: 0...1, "new card insert order", else: 0, "due")
    let leechAction = known(s.leechAction, in: 0...1, "leech action", else: 0, "suspend")
    let answerAction = known(s.answerAction, in: 0...4, "answer action", else: 0, "bury card")
    let questionAction = known(s.questionAction, in: 0...1, "question action", else: 0, "show answer")
    let scaledEase = (s.initialEase.isFinite ? s.initialEase : 0) * 1000
    // Float(UInt32.max) rounds up to 2^32, which UInt32 cannot hold: compare before converting.
    let initialFactor = scaledEase.rounded() >= 4_294_967_296 ? UInt32.max : UInt32(max(0, scaledEase.rounded()))

    var other = OtherKeys(s.other)
    if let problem = other.problem {
      report("its extra legacy keys cannot be read (\(problem)) and are left out")
    }
    let new: [(String, JSONValue)] =
      [
        ("bury", .bool(s.buryNew)),
        ("delays", floats(s.learnSteps)),
        ("initialFactor", uint16(initialFactor, "initial ease ×1000")),
        (
          "ints",
          .array([
            uint16(s.graduatingIntervalGood, "graduating interval"),
            uint16(s.graduatingIntervalEasy, "easy interval"), .int(0),
          ])
        ),
        ("order", .int(order)),
        ("perDay", .int(Int64(s.newPerDay))),
      ] + other.take("new", except: reservedNewKeys)
    let rev: [(String, JSONValue)] =
      [
        ("bury", .bool(s.buryReviews)),
        ("ease4", .float(s.easyMultiplier)),
        ("ivlFct", .float(s.intervalMultiplier)),
        ("maxIvl", .int(Int64(s.maximumReviewInterval))),
        ("perDay", .int(Int64(s.reviewsPerDay))),
        ("hardFactor", .float(s.hardMultiplier)),
      ] + other.take("rev", except: reservedRevKeys)
    let lapse: [(String, JSONValue)] =
      [
        ("delays", floats(s.relearnSteps)),
        ("leechAction", .int(leechAction)),
        ("leechFails", .int(Int64(s.leechThreshold))),
        ("minInt", .int(Int64(s.minimumLapseInterval))),
        ("mult", .float(s.lapseMultiplier)),
      ] + other.take("lapse", except: reservedLapseKeys)
    let top: [(String, JSONValue)] = [
      ("id", .int(id)),
      ("mod", .int(modificationTime)),
      ("name", .string(name)),
      ("usn", .int(0)),
      ("maxTaken", .int(Int64(Int32(truncatingIfNeeded: s.capAnswerTimeToSecs)))),
      ("autoplay", .bool(!s.disableAutoplay)),
      ("timer", .int(s.showTimer ? 1 : 0)),
      ("replayq", .bool(!s.skipQuestionWhenReplayingAnswer)),
      ("new", .object(new)),
      ("rev", .object(rev)),
      ("lapse", .object(lapse)),
      ("dyn", .bool(false)),
      ("newMix", .int(s.newMix)),
      ("newPerDayMinimum", .int(Int64(s.newPerDayMinimum))),
      ("interdayLearningMix", .int(s.interdayLearningMix)),
      ("reviewOrder", .int(s.reviewOrder)),
      ("newSortOrder", .int(s.newCardSortOrder)),
      ("newGatherPriority", .int(s.newCardGatherPriority)),
      ("buryInterdayLearning", .bool(s.buryInterdayLearning)),
      ("fsrsWeights", floats(s.fsrsParams4)),
      ("fsrsParams5", floats(s.fsrsParams5)),
      ("fsrsParams6", floats(s.fsrsParams6)),
      ("desiredRetention", .float(s.desiredRetention)),
      ("ignoreRevlogsBeforeDate", .string(s.ignoreRevlogsBeforeDate)),
      ("easyDaysPercentages", floats(s.easyDaysPercentages)),
      ("stopTimerOnAnswer", .bool(s.stopTimerOnAnswer)),
      ("secondsToShowQuestion", .float(s.secondsToShowQuestion)),
      ("secondsToShowAnswer", .float(s.secondsToShowAnswer)),
      ("questionAction", .int(questionAction)),
      ("answerAction", .int(answerAction)),
      ("waitForAudio", .bool(s.waitForAudio)),
      ("sm2Retention", .float(s.historicalRetention)),
      ("weightSearch", .string(s.paramSearch)),
    ]
    return .object(top + other.remaining(except: reservedKeys))
  }

  /// The legacy keys kept in field 255 (`other`): a JSON object whose `new`, `rev` and `lapse`
  /// members go into those sub-objects, minus the keys Anki writes itself.
  struct OtherKeys {
    private var object: [String: Any] = [:]
    /// Why the blob could not be read, when it could not.
    private(set) var problem: String?

    init(_ data: Data) {
      guard !data.isEmpty else { return }
      guard let object = (try? FoundationJSON.object(data)) as? [String: Any]
      else {
        problem = "not a JSON object"
        return
      }
      self.object = object
    }

    /// The members of sub-object `key`, minus `reserved`, sorted by key; removes `key`.
    mutating func take(_ key: String, except reserved: Set<String>) -> [(String, JSONValue)] {
      guard let sub = object.removeValue(forKey: key) as? [String: Any] else { return [] }
      return sub.keys.sorted().filter { !reserved.contains($0) }.compactMap { name in
        sub[name].map { (name, JSONValue.fromFoundation($0)) }
      }
    }

    /// The remaining top-level members, minus `reserved`, sorted by key.
    func remaining(except reserved: Set<String>) -> [(String, JSONValue)] {
      object.keys.sorted().filter { !reserved.contains($0) && !["new", "rev", "lapse"].contains($0) }
        .compactMap { name in object[name].map { (name, JSONValue.fromFoundation($0)) } }
    }
  }
}
