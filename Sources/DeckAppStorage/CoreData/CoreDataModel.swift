import Foundation
import PlistCodec

/// The entities of a Core Data/SwiftData model as its store's `Z_MODELCACHE` describes them:
/// the entity hierarchy, and each entity's own properties (attributes with their types and flags,
/// SwiftData composite attributes with their elements, relationships with their destination,
/// inverse and cardinality) under the model's own names.
struct CoreDataModel {
  /// An attribute, or an element of a composite attribute.
  struct Attribute: Equatable {
    var name: String
    /// Core Data's `NSAttributeType` code (100 Integer 16, 300 Integer 64, 700 String, 1100 UUID, …).
    var typeCode: Int64
    var isOptional: Bool
    /// Transient attributes have no column.
    var isTransient: Bool
    /// "Allows External Storage": bit `0x4` of the attribute's `NSFlagsKey`.
    var allowsExternalStorage: Bool
    var defaultValue: AppValue?
    /// A derived attribute (`NSDerivedAttributeDescription`): its value is computed by the
    /// store's triggers from other rows (a count, a copy of a related value), never set.
    var isDerived = false
  }

  /// A SwiftData composite attribute (`NSCompositeAttributeDescription`, a `Codable` struct or
  /// enum stored in the row): one column per element.
  struct Composite: Equatable {
    var name: String
    var isOptional: Bool
    var elements: [Attribute]
  }

  /// A relationship.
  struct Relationship: Equatable {
    var name: String
    /// The destination entity's name.
    var destination: String
    /// The inverse relationship's name, when there is one.
    var inverse: String?
    var minCount: Int64
    /// 1 for a to-one relationship; 0 (no limit) or more for a to-many.
    var maxCount: Int64
    var isOptional: Bool
    var isOrdered: Bool
    var isTransient: Bool

    var isToMany: Bool { maxCount != 1 }
  }

  /// A property of an entity.
  enum Property: Equatable {
    case attribute(Attribute)
    case composite(Composite)
    case relationship(Relationship)

    var name: String {
      switch self {
      case .attribute(let attribute): attribute.name
      case .composite(let composite): composite.name
      case .relationship(let relationship): relationship.name
      }
    }
  }

  /// An entity.
  struct Entity {
    var name: String
    var superentity: String?
    var isAbstract: Bool
    /// The properties the entity declares itself (inherited ones are its superentity's), in
    /// the archive's order.
    var properties: [Property]
    /// Each uniqueness constraint: the names of the properties that together are unique.
    var uniquenessConstraints: [[String]]

    /// The attributes among the entity's own properties.
    var attributes: [Attribute] {
      properties.compactMap { if case .attribute(let attribute) = $0 { attribute } else { nil } }
    }
  }

  var entities: [String: Entity]

  /// Why the model cache could not be read.
  struct Failure: Error {
    var message: String
  }

  /// Bit of `NSFlagsKey` that marks an attribute as allowing external storage.
  static let externalStorageFlag: Int64 = 0x4

  /// The model in a `Z_MODELCACHE.Z_CONTENT` blob: raw DEFLATE around an NSKeyedArchiver archive
  /// of the `NSManagedObjectModel`.
  static func decode(modelCache: Data) throws(Failure) -> CoreDataModel {
    let inflated: Data
    do {
      inflated = try RawInflate.inflate(modelCache)
    } catch {
      throw Failure(message: error.message)
    }
    let root: PlistValue
    do {
      root = try BinaryPlistReader.read(inflated)
    } catch {
      throw Failure(message: "the inflated model is not a binary plist (\(error.text))")
    }
    guard let archive = KeyedArchive(root) else {
      throw Failure(message: "the inflated model is not an NSKeyedArchiver archive")
    }
    return decode(archive)
  }

  /// The entities of an archived model: every `NSEntityDescription` object. An entity's
  /// `NSProperties` also lists what it inherits, so a property is the entity's own when its
  /// superentity does not list a property of that name.
  static func decode(_ archive: KeyedArchive) -> CoreDataModel {
    var archived: [String: PlistDictionary] = [:]
    for object in archive.objects {
      guard case .dictionary(let entity) = object, archive.className(entity) == "NSEntityDescription",
        let name = archive.string(entity["NSEntityName"])
      else { continue }
      archived[name] = entity
    }
    var entities: [String: Entity] = [:]
    for (name, entity) in archived {
      let superentity = archive.dictionary(entity["NSSuperentity"]).flatMap { archive.string($0["NSEntityName"]) }
      let inherited = Set(
        superentity.flatMap { archived[$0] }.map {
          archive.entries($0["NSProperties"]).compactMap { propertyName($0, archive) }
        } ?? [])
      var properties: [Property] = []
      for entry in archive.entries(entity["NSProperties"]) {
        guard let property = archive.dictionary(entry.value), let className = archive.className(property),
          let name = archive.string(property["NSPropertyName"]) ?? entry.key, !inherited.contains(name)
        else { continue }
        switch className {
        case "NSAttributeDescription":
          properties.append(.attribute(attribute(property, name: name, archive)))
        case "NSDerivedAttributeDescription":
          var derived = attribute(property, name: name, archive)
          derived.isDerived = true
          properties.append(.attribute(derived))
        case "NSCompositeAttributeDescription":
          let elements = archive.entries(property["NSCompositeElements"]).compactMap { element -> Attribute? in
            guard let description = archive.dictionary(element.value),
              let elementName = archive.string(description["NSPropertyName"])
            else { return nil }
            return attribute(description, name: elementName, archive)
          }
          properties.append(
            .composite(Composite(name: name, isOptional: isOptional(property, archive), elements: elements)))
        case "NSRelationshipDescription":
          let destination =
            archive.string(property["_NSDestinationEntityName"])
            ?? archive.dictionary(property["NSDestinationEntity"]).flatMap { archive.string($0["NSEntityName"]) } ?? ""
          let inverse =
            archive.string(property["_NSInverseRelationshipName"])
            ?? archive.dictionary(property["NSInverseRelationship"]).flatMap { archive.string($0["NSPropertyName"]) }
          properties.append(
            .relationship(
              Relationship(
                name: name, destination: destination, inverse: inverse,
                minCount: archive.integer(property["NSMinCount"]) ?? 0,
                maxCount: archive.integer(property["NSMaxCount"]) ?? 1,
                isOptional: isOptional(property, archive), isOrdered: archive.bool(property["NSIsOrdered"]) ?? false,
                isTransient: archive.bool(property["NSIsTransient"]) ?? false)))
        default:
          continue
        }
      }
      entities[name] = Entity(
        name: name, superentity: superentity, isAbstract: archive.bool(entity["NSIsAbstract"]) ?? false,
        properties: properties, uniquenessConstraints: uniquenessConstraints(entity["NSUniqueTuples"], archive))
    }
    return CoreDataModel(entities: entities)
  }

  /// The entity and its superentities, the root first.
  func lineage(of entity: String) -> [Entity] {
    var chain: [Entity] = []
    var current = entities[entity]
    var seen = Set<String>()
    while let step = current, seen.insert(step.name).inserted {
      chain.insert(step, at: 0)
      current = step.superentity.flatMap { entities[$0] }
    }
    return chain
  }

  /// The properties of `entity` including those it inherits, the root's first.
  func allProperties(of entity: String) -> [Property] {
    lineage(of: entity).flatMap(\.properties)
  }

  /// The uniqueness constraints of `entity` including inherited ones.
  func uniquenessConstraints(of entity: String) -> [[String]] {
    lineage(of: entity).flatMap(\.uniquenessConstraints)
  }

  /// Whether `entity` is `ancestor` or inherits from it.
  func entity(_ entity: String, isKindOf ancestor: String) -> Bool {
    lineage(of: entity).contains { $0.name == ancestor }
  }

  private static func propertyName(_ entry: (key: String?, value: PlistValue), _ archive: KeyedArchive) -> String? {
    archive.dictionary(entry.value).flatMap { archive.string($0["NSPropertyName"]) } ?? entry.key
  }

  /// Optional when `NSIsOptional` says so; archives that leave the key out keep it in bit
  /// `0x2` of the packed `_P` flags.
  private static func isOptional(_ property: PlistDictionary, _ archive: KeyedArchive) -> Bool {
    archive.bool(property["NSIsOptional"]) ?? ((archive.integer(property["_P"]) ?? 0) & 2 != 0)
  }

  private static func attribute(_ property: PlistDictionary, name: String, _ archive: KeyedArchive) -> Attribute {
    let flags = archive.integer(property["NSFlagsKey"]) ?? 0
    return Attribute(
      name: name, typeCode: archive.integer(property["NSAttributeType"]) ?? 0,
      isOptional: isOptional(property, archive),
      isTransient: archive.bool(property["NSIsTransient"]) ?? false,
      allowsExternalStorage: flags & externalStorageFlag != 0,
      defaultValue: defaultValue(property["NSDefaultValue"], archive))
  }

  /// `NSUniqueTuples`: an array of arrays whose members are property names (or archived
  /// properties).
  private static func uniquenessConstraints(_ value: PlistValue?, _ archive: KeyedArchive) -> [[String]] {
    archive.entries(value).compactMap { tuple in
      let names = archive.entries(tuple.value).compactMap { member in
        archive.string(member.value)
          ?? archive.dictionary(member.value).flatMap { archive.string($0["NSPropertyName"]) }
      }
      return names.isEmpty ? nil : names
    }
  }

  /// An archived default value as an app value (NSNumber, NSString, NSUUID, NSDate, NSData).
  private static func defaultValue(_ value: PlistValue?, _ archive: KeyedArchive) -> AppValue? {
    switch archive.resolve(value) {
    case .string(let text)?: return .string(text)
    case .integer(let number)?: return .integer(number)
    case .real(let number)?: return .double(number)
    case .bool(let flag)?: return .bool(flag)
    case .data(let data)?: return .data(data)
    case .dictionary(let object)?:
      if case .data(let bytes)? = archive.resolve(object["NS.uuidbytes"]), bytes.count == 16 {
        return .uuid(UUID(bytes: bytes))
      }
      if case .real(let seconds)? = archive.resolve(object["NS.time"]) {
        return .date(Date(timeIntervalSinceReferenceDate: seconds))
      }
      if case .data(let bytes)? = archive.resolve(object["NS.data"]) { return .data(bytes) }
      if let text = archive.string(object["NS.string"]) { return .string(text) }
      return nil
    default: return nil
    }
  }
}
