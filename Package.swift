// swift-tools-version: 6.1
//
// deckport: moves flashcard decks between formats without losing anything.
//
// Layering (each arrow is "depends on"):
//   deckport (CLI) -> DeckConversion -> format modules (DeckAnki, ...) -> DeckIO -> C system libraries
//                                                                      -> DeckCore (the shared model, no I/O)
//   DeckCore -> swift-crypto (SHA-1 and SHA-256 digests only)
//   DeckAppStorage -> PlistCodec (binary and XML plists; internal, not a product) -> DeckCore
//   DeckKit, the one library product, re-exports the model, the formats and the conversion API.
//
// Apps see only DeckKit. Everything else (I/O wrappers, tokenizers, codecs) has `package`
// access: the CLI, the tests and the fuzz targets in this package use it, apps do not.
// DECKPORT_FUZZ=1 adds the libFuzzer targets of Tests/Fuzz (built by scripts/fuzz.sh).

import Foundation
import PackageDescription

let package = Package(
  name: "deckport",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "DeckKit", targets: ["DeckKit"]),
    .executable(name: "deckport", targets: ["deckport"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
  ],
  targets: [
    // MARK: System libraries (installed by scripts/setup.sh)
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .systemLibrary(
      name: "CZip", pkgConfig: "libzip",
      providers: [.apt(["libzip-dev"]), .brew(["libzip"])]),
    .systemLibrary(
      name: "CZstd", pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .systemLibrary(
      name: "CDeflate", pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),

    // MARK: Core
    /// The shared deck model: decks, note types, notes, cards, reviews, media. No I/O. Its
    /// SHA-1 and SHA-256 come from swift-crypto; settings' JSON text is read with JSONCore.
    .target(
      name: "DeckCore", dependencies: ["JSONCore", "CVectorText", .product(name: "Crypto", package: "swift-crypto")]),
    /// The one ordered-JSON core: a value type, a parser with line/column and a depth limit, a
    /// writer, and the UTF-8 check the JSON and CSV readers share. Internal to the package (its
    /// API is `package`), not a product; the model reads settings' JSON text with it.
    .target(name: "JSONCore", dependencies: ["CVectorText"]),
    /// Text scanned and decoded with vector instructions (AVX2 or SSSE3/SSE2, chosen at run
    /// time; on other processors it does nothing and the Swift callers do all the work): the
    /// runs of plain JSON string text, whole blocks of base64, and the kinds of byte a field
    /// holds (vectorised by the compiler).
    .target(name: "CVectorText"),
    /// A file's mapped pages that read as zeros, instead of ending the process, when another
    /// program shortens the file (the SIGBUS handler `MappedFile` relies on).
    .target(name: "CMappedPages"),
    /// Thin wrappers over SQLite, libzip, libzstd, zlib and libdeflate (whole-buffer inflate),
    /// plus the protobuf wire codec, base64 both ways, and files mapped for reading.
    .target(
      name: "DeckIO",
      dependencies: ["DeckCore", "CSQLite", "CZip", "CZstd", "CZlib", "CDeflate", "CVectorText", "CMappedPages"]),

    // MARK: Formats
    /// Anki packages (.apkg, .colpkg) of every generation.
    .target(name: "DeckAnki", dependencies: ["DeckCore", "DeckIO", "JSONCore"]),
    /// The deckport JSON deck format (media embedded as base64, streamed).
    .target(name: "DeckJSON", dependencies: ["DeckCore", "DeckIO", "JSONCore", "CVectorText"]),
    /// CSV and TSV in Anki's text-file dialect (header directives), and plain spreadsheets; it
    /// takes Anki's plain-text form of a field from DeckAnki.
    .target(name: "DeckCSV", dependencies: ["DeckCore", "DeckIO", "DeckAnki", "JSONCore"]),
    /// Binary and XML property lists read and written with key order kept; internal to the
    /// package (not a product), used by DeckAppStorage. It takes exact comparison from DeckCore.
    .target(name: "PlistCodec", dependencies: ["DeckCore"]),
    /// App storage: UserDefaults plists, JSON record files, SQLite and Core Data/SwiftData stores.
    .target(name: "DeckAppStorage", dependencies: ["DeckCore", "DeckIO", "CZlib", "JSONCore", "PlistCodec"]),

    /// CrowdAnki folders (deck.json + media/). It shares DeckAnki's schema-11 note type and
    /// option group mapping, because CrowdAnki stores exactly those objects.
    .target(name: "DeckCrowdAnki", dependencies: ["DeckCore", "DeckIO", "DeckAnki", "JSONCore"]),

    // MARK: Conversion
    /// Format detection, inspection and the convert pipeline that the CLI and apps call.
    .target(
      name: "DeckConversion",
      dependencies: [
        "DeckCore", "DeckIO", "JSONCore", "DeckAnki", "DeckJSON", "DeckCSV", "DeckAppStorage", "DeckCrowdAnki",
      ]),

    // MARK: Library product
    /// What an app imports: the model, every format and the conversion API, in one module.
    .target(
      name: "DeckKit",
      dependencies: [
        "DeckCore", "DeckConversion", "DeckAnki", "DeckJSON", "DeckCSV", "DeckAppStorage", "DeckCrowdAnki",
      ]),

    // MARK: CLI
    /// The commit the CLI was built from (recorded by scripts/setup.sh), for `--version`.
    .target(name: "CBuildInfo"),
    /// zlib's `crc32` answered by libdeflate, for the libzip calls of the `deckport` executable
    /// (symbol interposition; the library products keep zlib's).
    .target(name: "CZlibCRC", dependencies: ["CZlib", "CDeflate"]),
    .executableTarget(
      name: "deckport",
      dependencies: [
        "CBuildInfo",
        "CZlibCRC",
        "DeckConversion",
        "DeckCore",
        "DeckAnki",
        "DeckCSV",
        "DeckAppStorage",
        "DeckIO",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    // MARK: Test support
    /// Fixture lookup and package surgery shared by the test targets; not a product.
    .target(name: "DeckTestSupport", dependencies: ["DeckCore", "DeckIO"]),

    // MARK: Tests
    .testTarget(name: "DeckCoreTests", dependencies: ["DeckCore", "DeckTestSupport"]),
    .testTarget(name: "DeckIOTests", dependencies: ["DeckIO", "DeckCore", "DeckTestSupport", "CVectorText"]),
    .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore"]),
    .testTarget(
      name: "DeckAnkiTests", dependencies: ["DeckAnki", "DeckIO", "DeckTestSupport", "DeckCore", "JSONCore"]),
    .testTarget(
      name: "DeckJSONTests",
      dependencies: ["DeckJSON", "DeckAnki", "DeckTestSupport", "DeckCore", "DeckIO", "JSONCore"]),
    .testTarget(name: "DeckCSVTests", dependencies: ["DeckCSV", "DeckAnki", "DeckTestSupport", "DeckCore", "DeckIO"]),
    .testTarget(
      name: "DeckAppStorageTests",
      dependencies: ["DeckAppStorage", "DeckCore", "DeckIO", "DeckTestSupport", "deckport", "PlistCodec", "JSONCore"]),
    .testTarget(name: "PlistCodecTests", dependencies: ["PlistCodec", "DeckIO", "DeckTestSupport"]),
    .testTarget(
      name: "deckportTests",
      dependencies: [
        "DeckConversion", "DeckKit", "deckport", "DeckTestSupport", "DeckCore", "DeckCrowdAnki", "DeckIO", "CZlibCRC",
      ]),
  ],
  swiftLanguageModes: [.v6]
)

// MARK: Fuzz targets (DECKPORT_FUZZ=1, scripts/fuzz.sh)
if ProcessInfo.processInfo.environment["DECKPORT_FUZZ"] != nil {
  package.targets += [
    /// Runs libFuzzer's driver with a Swift closure.
    .target(name: "FuzzSupport", dependencies: ["DeckCore"], path: "Tests/Fuzz/Sources/FuzzSupport"),
    /// Whole files given to the Anki package reader.
    .executableTarget(
      name: "FuzzAnkiPackage", dependencies: ["FuzzSupport", "DeckAnki", "DeckCore"],
      path: "Tests/Fuzz/Sources/FuzzAnkiPackage"),
    /// One member of a good package (meta, media map, collection) replaced by fuzz data.
    .executableTarget(
      name: "FuzzAnkiMember", dependencies: ["FuzzSupport", "DeckAnki", "DeckCore", "DeckIO"],
      path: "Tests/Fuzz/Sources/FuzzAnkiMember"),
    /// Whole files given to the CSV/TSV reader.
    .executableTarget(
      name: "FuzzCSV", dependencies: ["FuzzSupport", "DeckCSV", "DeckCore"], path: "Tests/Fuzz/Sources/FuzzCSV"),
    /// Whole files given to the app storage readers (plist, JSON records, SQLite, Core Data), and
    /// the JSON parse that leaves long strings in the file against the one that decodes them all.
    .executableTarget(
      name: "FuzzAppStorage", dependencies: ["FuzzSupport", "DeckAppStorage", "DeckCore", "JSONCore"],
      path: "Tests/Fuzz/Sources/FuzzAppStorage"),
    /// Hostile rows and a hostile model (the inflated archive of Z_MODELCACHE) in real stores, read and migrated.
    .executableTarget(
      name: "FuzzCoreDataStore",
      dependencies: ["FuzzSupport", "FuzzWriting", "DeckAppStorage", "DeckCore", "DeckIO", "PlistCodec", "CZlib"],
      path: "Tests/Fuzz/Sources/FuzzCoreDataStore"),
    /// Whole files given to the JSON deck reader.
    .executableTarget(
      name: "FuzzDeckJSON", dependencies: ["FuzzSupport", "DeckJSON", "DeckCore"],
      path: "Tests/Fuzz/Sources/FuzzDeckJSON"),
    /// Any bytes as a CrowdAnki folder's deck file, beside media files the first byte chooses,
    /// read as `deckport convert --from crowdanki` reads it.
    .executableTarget(
      name: "FuzzCrowdAnki", dependencies: ["FuzzSupport", "DeckConversion", "DeckCrowdAnki", "DeckCore"],
      path: "Tests/Fuzz/Sources/FuzzCrowdAnki"),
    /// Any bytes as the files of a json-dir folder (length-prefixed records), read as
    /// `deckport convert --from json-dir` reads it.
    .executableTarget(
      name: "FuzzDeckJSONDirectory", dependencies: ["FuzzSupport", "DeckConversion", "DeckJSON", "DeckCore"],
      path: "Tests/Fuzz/Sources/FuzzDeckJSONDirectory"),
    /// What the writer targets share: the fuzz input read as choices, the output steps, the stores.
    .target(
      name: "FuzzWriting",
      dependencies: [
        "DeckConversion", "DeckAnki", "DeckAppStorage", "DeckCSV", "DeckCore", "DeckIO", "DeckJSON", "DeckCrowdAnki",
      ],
      path: "Tests/Fuzz/Sources/FuzzWriting"),
    /// Valid collections with hostile values inside, through every writer, its reader, and every writer again.
    .executableTarget(
      name: "FuzzWriters",
      dependencies: ["FuzzSupport", "FuzzWriting", "DeckConversion", "DeckCore", "DeckJSON"],
      path: "Tests/Fuzz/Sources/FuzzWriters"),
    /// An app's hostile values through `DeckBuilder`, `DeckCollection.due(of:timeZone:)` and every writer.
    .executableTarget(
      name: "FuzzBuilder",
      dependencies: ["FuzzSupport", "FuzzWriting", "DeckConversion", "DeckCore"],
      path: "Tests/Fuzz/Sources/FuzzBuilder"),
  ]
}
