// swift-tools-version:6.1
import PackageDescription

let optimized: [SwiftSetting] = [.unsafeFlags(["-O"])]

let package = Package(
    name: "DoseTapBox",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DoseCore", targets: ["DoseCore"]),
        .library(name: "NightLog", targets: ["NightLog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // constants.json is embedded into DoseCore at build time, so the code cannot drift from it.
        .executableTarget(name: "ConstantsEmbedder", path: "Sources/ConstantsEmbedder"),
        .plugin(
            name: "ConstantsPlugin",
            capability: .buildTool(),
            dependencies: ["ConstantsEmbedder"],
            path: "Sources/ConstantsPlugin"
        ),
        // The pure rules of the night: no I/O, time is passed in.
        // Optimised even in debug builds: the model-based safety test runs it about a million times.
        .target(name: "DoseCore", swiftSettings: optimized, plugins: ["ConstantsPlugin"]),
        // The durable night log on SQLite (GRDB).
        .target(name: "NightLog", dependencies: [
            "DoseCore",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        .executableTarget(name: "NightLogBench", dependencies: ["NightLog", "DoseCore"], path: "bench/NightLogBench"),
        .testTarget(name: "DoseCoreTests", dependencies: ["DoseCore"], swiftSettings: optimized),
        .testTarget(name: "NightLogTests", dependencies: ["NightLog", "DoseCore"]),
    ],
    swiftLanguageModes: [.v6]
)
