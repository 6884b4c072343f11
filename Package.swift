// swift-tools-version:6.1
import PackageDescription

let optimized: [SwiftSetting] = [.unsafeFlags(["-O"])]

let package = Package(
    name: "DoseTapBox",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "boxd", targets: ["boxd"]),
        .executable(name: "boxctl", targets: ["boxctl"]),
        .library(name: "DoseCore", targets: ["DoseCore"]),
        .library(name: "NightLog", targets: ["NightLog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
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

        // Hardware seams, tone synthesis and the simulated backends (no C).
        .target(name: "BoxHardware", dependencies: ["DoseCore"]),
        // C libraries, through the system's pkg-config.
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .target(name: "CBoxSys"),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        // Real backends.
        .target(name: "BoxALSA", dependencies: ["CALSA", "BoxHardware", "DoseCore"]),
        .target(name: "BoxGPIO", dependencies: ["CGPIOD", "BoxHardware", "DoseCore"]),

        // The control socket's protocol, shared by boxd and boxctl.
        .target(name: "BoxControl", dependencies: ["DoseCore"]),
        // The service: engine, clocks, config, control socket, systemd notify.
        .target(name: "BoxDaemon", dependencies: [
            "DoseCore", "NightLog", "BoxHardware", "BoxALSA", "BoxGPIO", "BoxControl", "CBoxSys",
            .product(name: "TOMLKit", package: "TOMLKit"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "boxd", dependencies: [
            "BoxDaemon",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "boxctl", dependencies: [
            "BoxControl", "DoseCore", "NightLog", "CBoxSys",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .executableTarget(name: "NightLogBench", dependencies: ["NightLog", "DoseCore"], path: "bench/NightLogBench"),

        .testTarget(name: "DoseCoreTests", dependencies: ["DoseCore"], swiftSettings: optimized),
        .testTarget(name: "NightLogTests", dependencies: ["NightLog", "DoseCore"]),
        .testTarget(name: "BoxHardwareTests", dependencies: ["BoxHardware", "BoxALSA", "DoseCore"]),
        .testTarget(name: "BoxGPIOTests", dependencies: ["BoxGPIO", "BoxHardware", "DoseCore"]),
        .testTarget(name: "BoxDaemonTests", dependencies: ["BoxDaemon", "BoxControl", "DoseCore", "NightLog", "BoxHardware"]),
        // Hardware in the loop: the built boxd and boxctl binaries, driven like a person would.
        .testTarget(name: "HILTests", dependencies: ["BoxControl", "BoxHardware", "DoseCore"]),
    ],
    swiftLanguageModes: [.v6]
)
