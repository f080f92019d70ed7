// swift-tools-version: 6.1
//
// deckport: moves flashcard decks between formats without losing anything.
//
// Layering (each arrow is "depends on"):
//   deckport (CLI) -> DeckConversion -> format modules (DeckAnki, ...) -> DeckIO -> C system libraries
//                                                                      -> DeckCore (the shared model, no I/O)
//   DeckCore -> swift-crypto (SHA-1 and SHA-256 digests only)

import PackageDescription

let package = Package(
  name: "deckport",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "DeckCore", targets: ["DeckCore"]),
    .library(name: "DeckIO", targets: ["DeckIO"]),
    .library(name: "DeckAnki", targets: ["DeckAnki"]),
    .library(name: "DeckJSON", targets: ["DeckJSON"]),
    .library(name: "DeckCSV", targets: ["DeckCSV"]),
    .library(name: "DeckAppStorage", targets: ["DeckAppStorage"]),
    .library(name: "DeckCrowdAnki", targets: ["DeckCrowdAnki"]),
    .library(name: "DeckConversion", targets: ["DeckConversion"]),
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

    // MARK: Core
    /// The shared deck model: decks, note types, notes, cards, reviews, media. No I/O. Its
    /// SHA-1 and SHA-256 come from swift-crypto.
    .target(name: "DeckCore", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
    /// The one ordered-JSON core: a value type, a parser with line/column and a depth limit, and
    /// a writer. Internal to the package (its API is `package`), not a product.
    .target(name: "JSONCore"),
    /// Thin wrappers over SQLite, libzip and libzstd, plus the protobuf wire codec and SHA-1.
    .target(name: "DeckIO", dependencies: ["DeckCore", "CSQLite", "CZip", "CZstd"]),

    // MARK: Formats
    /// Anki packages (.apkg, .colpkg) of every generation.
    .target(name: "DeckAnki", dependencies: ["DeckCore", "DeckIO", "JSONCore"]),
    /// The deckport JSON deck format (media embedded as base64, streamed).
    .target(name: "DeckJSON", dependencies: ["DeckCore", "DeckIO", "JSONCore"]),
    /// CSV and TSV in Anki's text-file dialect (header directives), and plain spreadsheets.
    .target(name: "DeckCSV", dependencies: ["DeckCore", "DeckIO"]),
    /// App storage: UserDefaults plists, JSON record files, SQLite and Core Data/SwiftData stores.
    .target(name: "DeckAppStorage", dependencies: ["DeckCore", "DeckIO", "CZlib", "JSONCore"]),

    /// CrowdAnki folders (deck.json + media/). It shares DeckAnki's schema-11 note type and
    /// option group mapping, because CrowdAnki stores exactly those objects.
    .target(name: "DeckCrowdAnki", dependencies: ["DeckCore", "DeckIO", "DeckAnki", "JSONCore"]),

    // MARK: Conversion
    /// Format detection, inspection and the convert pipeline that the CLI and apps call.
    .target(
      name: "DeckConversion",
      dependencies: ["DeckCore", "DeckIO", "DeckAnki", "DeckJSON", "DeckCSV", "DeckAppStorage", "DeckCrowdAnki"]),

    // MARK: CLI
    /// The commit the CLI was built from (recorded by scripts/setup.sh), for `--version`.
    .target(name: "CBuildInfo"),
    .executableTarget(
      name: "deckport",
      dependencies: [
        "CBuildInfo",
        "DeckConversion",
        "DeckCore",
        "DeckAnki",
        "DeckCSV",
        "DeckAppStorage",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    // MARK: Test support
    /// Fixture lookup and package surgery shared by the test targets; not a product.
    .target(name: "DeckTestSupport", dependencies: ["DeckCore", "DeckIO"]),

    // MARK: Tests
    .testTarget(name: "DeckCoreTests", dependencies: ["DeckCore"]),
    .testTarget(name: "DeckIOTests", dependencies: ["DeckIO"]),
    .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore"]),
    .testTarget(name: "DeckAnkiTests", dependencies: ["DeckAnki", "DeckIO", "DeckTestSupport"]),
    .testTarget(name: "DeckJSONTests", dependencies: ["DeckJSON", "DeckAnki", "DeckTestSupport", "JSONCore"]),
    .testTarget(name: "DeckCSVTests", dependencies: ["DeckCSV", "DeckAnki", "DeckTestSupport"]),
    .testTarget(
      name: "DeckAppStorageTests",
      dependencies: ["DeckAppStorage", "DeckCore", "DeckIO", "DeckTestSupport", "deckport", "JSONCore"]),
    .testTarget(
      name: "deckportTests", dependencies: ["DeckConversion", "deckport", "DeckTestSupport", "DeckCore", "DeckIO"]),
  ],
  swiftLanguageModes: [.v6]
)
