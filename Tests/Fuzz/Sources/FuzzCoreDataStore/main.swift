import CZlib
import DeckAppStorage
import DeckCore
import DeckIO
import Foundation
import FuzzSupport
import FuzzWriting
import PlistCodec

// Hostile content in real Core Data/SwiftData stores: a hostile model, and hostile values in the
// rows. Core Data keeps a store's model in `Z_MODELCACHE` as raw DEFLATE around a binary plist
// (an NSKeyedArchiver archive of the NSManagedObjectModel), so FuzzAppStorage's mutations of a
// whole store never reach the model's reader (they break the compression first), and they rarely
// leave a page whose rows still parse. Here the input edits a copy of a real store: its rows
// (`RowEdit`: keys, entity numbers, Z_PRIMARYKEY's hierarchy and Z_MAX, references,
// external-storage tags, text and numbers) and, when it says so, its model (the inflated archive,
// deflated into place). The store is then read as `deckport migrate` reads it, its records
// mapped onto notes with their media, and migrated into a second copy of the edited store, so the
// content steers the reader's columns, the record writer's keys, required values, external
// storage and relationships, and the verification.
//
// The input: byte 0 chooses the store, byte 1 the entity (by its place in Z_PRIMARYKEY), byte 2
// the migration (bits 0-1: update, add, skip or fail for records the destination holds; bit 2: a
// dry run) and the model (bit 4: replace it; bit 3: the replacement is an XML plist, whose text
// survives more of the fuzzer's changes, turned into the binary plist Core Data writes), byte 3
// how many row edits follow (at most 16); after the edits, the rest is the inflated model. With
// DECKPORT_FUZZ_SEEDS=FOLDER set, the target writes seeds into FOLDER and exits: for each store's
// first and last entity, the store as it is, and its own model in both forms.

// The seed apps' stores (made by fixtures/app/make_app_fixtures.py, with the models the apps
// declare; NeoMnemo's with an image in external storage), then stores Apple's frameworks made
// (fixtures/apple-stores/README.md): inheritance and suffixed columns, relationships, a SwiftData
// composite. The large ones (Photos, Teams) are left out so that an execution stays quick.
let seedAppStores = StoreTemplate.load().filter { ["neomnemo.store", "Idealic.sqlite"].contains($0.name) }
let moreAppStores = ["flashzilla.store", "flashzilla-swiftdata.store", "recipes-composite.store"].map {
  StoreTemplate.fixture("app/" + $0)
}
let appleStores = [
  "CartKitSwiftData_v1.sqlite", "NoteStore-macOS-12-Monterey.sqlite", "SampleModel_V1.sqlite",
  "SampleModelV2-2018.sqlite", "SampleModel2_V2.sqlite", "VacuumTest-challenges.store",
].map { StoreTemplate.fixture("apple-stores/" + $0) }
let stores: [StoreTemplate] = seedAppStores + moreAppStores + appleStores

let scratch = NSTemporaryDirectory() + "deckport-fuzz-model-\(getpid())"
let sourceFolder = scratch + "/source"
let destinationFolder = scratch + "/destination"
// The scratch folder goes when the fuzzer exits (libFuzzer ends with `exit`).
atexit { try? FileManager.default.removeItem(atPath: scratch) }

/// Raw DEFLATE of `data` (no zlib header), as Core Data writes its model cache.
func rawDeflate(_ data: Data) -> Data {
  var stream = z_stream()
  guard
    deflateInit2_(
      &stream, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
  else { fatalError("zlib could not start deflating") }
  defer { deflateEnd(&stream) }
  var input = Array(data)
  var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
  let written = input.withUnsafeMutableBufferPointer { inputBuffer in
    output.withUnsafeMutableBufferPointer { outputBuffer in
      stream.next_in = inputBuffer.baseAddress
      stream.avail_in = uInt(inputBuffer.count)
      stream.next_out = outputBuffer.baseAddress
      stream.avail_out = uInt(outputBuffer.count)
      guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { fatalError("zlib could not deflate") }
      return outputBuffer.count - Int(stream.avail_out)
    }
  }
  return Data(output[0..<written])
}

/// Places a fresh copy of `store` in `folder`, with `edits` made to its rows and its model cache
/// replaced by `model` when given.
func place(_ store: StoreTemplate, in folder: String, edits: [RowEdit], model: Data?) throws -> String {
  try? FileManager.default.removeItem(atPath: folder)
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let path = store.place(in: folder)
  try RowEdit.apply(edits, toStoreAt: path)
  if let model {
    let database = try SQLiteDatabase(path: path, readOnly: false, location: SourceLocation(file: path))
    let update = try database.prepare("UPDATE Z_MODELCACHE SET Z_CONTENT = ?")
    update.bind(1, blob: rawDeflate(model))
    _ = try update.step()
  }
  return path
}

/// The names of the store's entities, in Z_PRIMARYKEY's order.
func entityNames(_ path: String) throws -> [String] {
  let database = try SQLiteDatabase(path: path, readOnly: true, location: SourceLocation(file: path))
  let statement = try database.prepare("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
  var names: [String] = []
  while try statement.step() { names.append(statement.text(0)) }
  return names
}

/// The store's own model, inflated.
func inflatedModel(_ path: String) throws -> Data {
  let database = try SQLiteDatabase(path: path, readOnly: true, location: SourceLocation(file: path))
  let statement = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
  guard try statement.step() else { fatalError("\(path): no model cache") }
  return try RawInflate.inflate(statement.blob(0))
}

if let seeds = ProcessInfo.processInfo.environment["DECKPORT_FUZZ_SEEDS"] {
  do {
    try FileManager.default.createDirectory(atPath: seeds, withIntermediateDirectories: true)
    for (storeIndex, store) in stores.enumerated() {
      let path = try place(store, in: sourceFolder, edits: [], model: nil)
      let model = try inflatedModel(path)
      let xml = try XMLPlistWriter.data(BinaryPlistReader.read(model))
      for entityIndex in Set([0, try entityNames(path).count - 1]) where entityIndex >= 0 {
        let name = seeds + "/store\(storeIndex)-entity\(entityIndex)"
        FileManager.default.createFile(atPath: name, contents: Data([UInt8(storeIndex), UInt8(entityIndex), 0, 0]))
        FileManager.default.createFile(
          atPath: name + "-model", contents: Data([UInt8(storeIndex), UInt8(entityIndex), 0x10, 0]) + model)
        // libFuzzer cuts inputs longer than -max_len (256 KiB).
        guard xml.count < 250_000 else { continue }
        FileManager.default.createFile(
          atPath: name + "-xml", contents: Data([UInt8(storeIndex), UInt8(entityIndex), 0x18, 0]) + xml)
      }
    }
    try? FileManager.default.removeItem(atPath: scratch)
    exit(0)
  } catch {
    fatalError("seeds: \(error)")
  }
}

/// `value` with each dictionary that holds only `CF$UID` made the UID it stands for, as Apple's
/// XML plists write an NSKeyedArchiver reference.
func restoringUIDs(_ value: PlistValue) -> PlistValue {
  switch value {
  case .array(let items): return .array(items.map(restoringUIDs))
  case .dictionary(let dictionary):
    if dictionary.keys == ["CF$UID"], case .integer(let number)? = dictionary["CF$UID"], number >= 0 {
      return .uid(UInt64(number))
    }
    return .dictionary(
      PlistDictionary(dictionary.entries.map { PlistDictionary.Entry(key: $0.key, value: restoringUIDs($0.value)) }))
  default: return value
  }
}

/// The binary plist the input's model stands for; nil when its XML form does not parse.
func binaryModel(_ model: Data, isXML: Bool) -> Data? {
  guard isXML else { return model }
  guard let (value, _) = try? XMLPlistReader.read(model) else { return nil }
  return BinaryPlistWriter.data(restoringUIDs(value))
}

let policies: [ExistingRecordPolicy] = [.update, .add, .skip, .fail]
runFuzzer { data in
  guard data.count >= 4 else { return }
  let bytes = [UInt8](data)
  let store = stores[Int(bytes[0]) % stores.count]
  let editCount = Int(bytes[3]) % 17
  // The edits take what they need from byte 4 on; the model is what is left after them.
  let (edits, consumed) = RowEdit.decode(bytes[4...], count: editCount)
  let modelStart = 4 + consumed
  var model: Data?
  if bytes[2] & 0x10 != 0 {
    guard let binary = binaryModel(Data(bytes[modelStart...]), isXML: bytes[2] & 8 != 0) else { return }
    model = binary
  }
  do {
    let source = try place(store, in: sourceFolder, edits: edits, model: model)
    let destination = try place(store, in: destinationFolder, edits: edits, model: model)
    let entities = try entityNames(source)
    guard !entities.isEmpty else { return }
    let entity = entities[Int(bytes[1]) % entities.count]
    let content = try AppStorageReader().read(path: source, options: AppStorageOptions(entity: entity))
    let mapped = try AppRecordMapping.collection(from: content.records)
    try readAllMedia(mapped.collection)
    _ = try AppMigrator().migrate(
      source: source, destination: destination,
      options: AppMigrationOptions(
        entity: entity, existing: .replace, dryRun: bytes[2] & 4 != 0,
        matching: AppRecordMatching(policy: policies[Int(bytes[2] & 3)])))
  } catch is DeckError {
  } catch {
    fatalError("not a DeckError: \(error)")
  }
}
