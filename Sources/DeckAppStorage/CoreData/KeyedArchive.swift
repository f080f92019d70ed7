import PlistCodec

/// An NSKeyedArchiver archive read as a plain plist: `$objects` walked by hand through UIDs.
///
/// Linux has no `NSManagedObjectModel` to unarchive into, so the model cache is read this way:
/// every object is a plist value, `$class` names its class, and references are UIDs.
struct KeyedArchive {
  let objects: [PlistValue]
  let top: PlistDictionary

  /// The archive in `root`, or nil when it is not an NSKeyedArchiver archive.
  init?(_ root: PlistValue) {
    guard case .dictionary(let archive) = root,
      case .string("NSKeyedArchiver")? = archive["$archiver"],
      case .array(let objects)? = archive["$objects"],
      case .dictionary(let top)? = archive["$top"]
    else { return nil }
    self.objects = objects
    self.top = top
  }

  /// The object a value refers to: a UID resolved (UID 0, `$null`, is nil), any other value as is.
  func resolve(_ value: PlistValue?) -> PlistValue? {
    guard let value else { return nil }
    guard case .uid(let number) = value else { return value }
    guard number > 0, number < UInt64(objects.count) else { return nil }
    let object = objects[Int(number)]
    if case .string("$null") = object { return nil }
    return object
  }

  /// The dictionary an object is archived as.
  func dictionary(_ value: PlistValue?) -> PlistDictionary? {
    if case .dictionary(let dictionary)? = resolve(value) { return dictionary }
    return nil
  }

  /// The class name of an archived object (`$class` → `$classname`).
  func className(_ object: PlistDictionary) -> String? {
    guard let info = dictionary(object["$class"]), case .string(let name)? = info["$classname"] else { return nil }
    return name
  }

  /// A string value: an inline string, a referenced string, or an NSString object.
  func string(_ value: PlistValue?) -> String? {
    switch resolve(value) {
    case .string(let text)?: return text
    case .dictionary(let object)?:
      if case .string(let text)? = resolve(object["NS.string"]) { return text }
      return nil
    default: return nil
    }
  }

  /// An integer value (inline or referenced).
  func integer(_ value: PlistValue?) -> Int64? {
    switch resolve(value) {
    case .integer(let number)?: return number
    case .bool(let flag)?: return flag ? 1 : 0
    default: return nil
    }
  }

  /// A boolean value (inline or referenced; integers count as their truth).
  func bool(_ value: PlistValue?) -> Bool? {
    switch resolve(value) {
    case .bool(let flag)?: return flag
    case .integer(let number)?: return number != 0
    default: return nil
    }
  }

  /// The members of an archived collection: NSArray/NSSet `NS.objects`, NSDictionary values
  /// (paired with their keys), NSKnownKeysDictionary1 `values` with its mapping's keys.
  func entries(_ value: PlistValue?) -> [(key: String?, value: PlistValue)] {
    guard let object = dictionary(value) else { return [] }
    func items(_ list: PlistValue?) -> [PlistValue] {
      if case .array(let values)? = list { return values }
      if let nested = dictionary(list), case .array(let values)? = nested["NS.objects"] { return values }
      return []
    }
    if object["NS.keys"] != nil {
      let keys = items(object["NS.keys"]).map { string($0) }
      let values = items(object["NS.objects"])
      return zip(keys, values).map { (key: $0.0, value: $0.1) }
    }
    if object["values"] != nil {
      let values = items(object["values"])
      let keys = dictionary(object["searchMapping"]).map { items($0["keys"]).map { string($0) } } ?? []
      return values.enumerated().map { (key: $0.offset < keys.count ? keys[$0.offset] : nil, value: $0.element) }
    }
    return items(object["NS.objects"]).map { (key: nil, value: $0) }
  }
}
