// swift-tools-version: 6.0
//
// libFuzzer targets for deckport's readers. Not part of the main package: they are built with
// coverage instrumentation by scripts/fuzz.sh, which also seeds and runs them.

import PackageDescription

let package = Package(
  name: "deckport-fuzz",
  dependencies: [.package(name: "deckport", path: "../..")],
  targets: [
    /// Runs libFuzzer's driver with a Swift closure.
    .target(name: "FuzzSupport", dependencies: [.product(name: "DeckCore", package: "deckport")]),
    /// Whole files given to the Anki package reader.
    .executableTarget(
      name: "FuzzAnkiPackage",
      dependencies: [
        "FuzzSupport", .product(name: "DeckAnki", package: "deckport"), .product(name: "DeckCore", package: "deckport"),
      ]),
    /// One member of a good package (meta, media map, collection) replaced by fuzz data.
    .executableTarget(
      name: "FuzzAnkiMember",
      dependencies: [
        "FuzzSupport", .product(name: "DeckAnki", package: "deckport"),
        .product(name: "DeckIO", package: "deckport"), .product(name: "DeckCore", package: "deckport"),
      ]),
    /// Whole files given to the CSV/TSV reader.
    .executableTarget(
      name: "FuzzCSV",
      dependencies: [
        "FuzzSupport", .product(name: "DeckCSV", package: "deckport"), .product(name: "DeckCore", package: "deckport"),
      ]),
    /// Whole files given to the app storage readers (plist, JSON records, SQLite, Core Data).
    .executableTarget(
      name: "FuzzAppStorage",
      dependencies: [
        "FuzzSupport", .product(name: "DeckAppStorage", package: "deckport"),
        .product(name: "DeckCore", package: "deckport"),
      ]),
    /// Whole files given to the JSON deck reader.
    .executableTarget(
      name: "FuzzDeckJSON",
      dependencies: [
        "FuzzSupport", .product(name: "DeckJSON", package: "deckport"), .product(name: "DeckCore", package: "deckport"),
      ]),
    /// Valid collections with hostile values inside, through every writer, its reader, and every writer again.
    .executableTarget(
      name: "FuzzWriters",
      dependencies: [
        "FuzzSupport", .product(name: "DeckConversion", package: "deckport"),
        .product(name: "DeckAnki", package: "deckport"), .product(name: "DeckAppStorage", package: "deckport"),
        .product(name: "DeckCSV", package: "deckport"), .product(name: "DeckIO", package: "deckport"),
        .product(name: "DeckJSON", package: "deckport"), .product(name: "DeckCrowdAnki", package: "deckport"),
        .product(name: "DeckCore", package: "deckport"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
