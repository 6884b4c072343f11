// swift-tools-version:6.1
import Foundation
import PackageDescription

let optimized: [SwiftSetting] = [.unsafeFlags(["-O"])]

// Which libgpiod API BoxGPIO is built for, from the installed library's pkg-config version:
// 2.x (Debian 13 trixie, Raspberry Pi OS of today) compiles LibgpiodV2Driver, anything else
// (1.6 on Debian 12 bookworm, or no pkg-config at all) LibgpiodDriver. Nothing to choose.
// pkg-config is what SwiftPM itself asks for CGPIOD's flags, so the header and the driver agree.
func libgpiodMajorVersion() -> Int {
    #if os(Linux)
    for dir in ["/usr/bin", "/usr/local/bin", "/bin"] {
        let tool = dir + "/pkg-config"
        guard FileManager.default.isExecutableFile(atPath: tool) else { continue }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--modversion", "libgpiod"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return 1 }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return 1 }
        let version = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int(version.prefix { $0.isNumber }) ?? 1
    }
    #endif
    return 1
}

let gpiod: [SwiftSetting] = libgpiodMajorVersion() >= 2 ? [.define("GPIOD_V2")] : []

let package = Package(
    name: "DoseTapBox",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "boxd", targets: ["boxd"]),
        .executable(name: "boxctl", targets: ["boxctl"]),
        .executable(name: "boxd-mqtt", targets: ["boxd-mqtt"]),
        .executable(name: "dosetap-box", targets: ["dosetap-box"]),
        .library(name: "DoseCore", targets: ["DoseCore"]),
        .library(name: "NightLog", targets: ["NightLog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
    ],
    targets: [
        // constants.json is turned into DoseCore code at build time, so the code cannot drift from it.
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
        // What the box says, in words: the written ones (boxctl, status, the feed, the bridge) and the
        // spoken ones (the voice), from the core's refusals, outcomes and faults; the seeds' texts.
        .target(name: "BoxWords", dependencies: ["DoseCore"]),
        // Take Care's drink pacing (seed 002, #33): pure, beside the dose rules; its numbers are constants.json's.
        .target(name: "PacingCore", dependencies: ["DoseCore"]),
        // The durable night log on SQLite (GRDB).
        .target(name: "NightLog", dependencies: [
            "DoseCore", "BoxWords", "CZlib",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),

        // Hardware seams, tone synthesis and the simulated backends (no C).
        .target(name: "BoxHardware", dependencies: ["DoseCore"]),
        // C libraries, through the system's pkg-config.
        // zlib's CRC-32 for the night log's witness file.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CBoxSys"),
        // boxd's executor for Swift concurrency: its own threads and timer, no libdispatch pool (#34).
        .target(name: "CQuietRuntime"),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        // libmosquitto and espeak-ng: their headers, and their functions loaded when first called
        // (dlopen), so that only boxd-mqtt and boxd load them: the package's one program holds all
        // three (#34). The headers come with libmosquitto-dev and libespeak-ng-dev.
        .target(name: "CMosquitto", dependencies: ["CBoxSys"]),
        .target(name: "CEspeak", dependencies: ["CBoxSys"]),
        // alsa-lib the same way: boxd plays, boxctl and boxd-mqtt do not (#34). Headers: libasound2-dev.
        .target(name: "CALSA", dependencies: ["CBoxSys"]),
        // Real backends.
        .target(name: "BoxALSA", dependencies: ["CALSA", "BoxHardware", "DoseCore"]),
        .target(name: "BoxGPIO", dependencies: ["CGPIOD", "BoxHardware", "DoseCore"], swiftSettings: gpiod),

        // An MQTT client on libmosquitto, for the caregiver bridge (no daemon module depends on it).
        .target(name: "BoxMQTT", dependencies: ["CMosquitto"]),
        // The caregiver bridge's logic: topics, messages, Home Assistant discovery and the cursor (pure).
        .target(name: "CaregiverBridge", dependencies: ["BoxControl", "BoxWords", "DoseCore"]),
        // The sleep specialist's report: one HTML page with inline SVG charts (pure: nights in, text out).
        .target(name: "ClinicianReport", dependencies: ["BoxWords", "DoseCore", .product(name: "Plot", package: "Plot")]),
        // The voice (#15): espeak-ng synthesis to PCM, for the tones' player.
        .target(name: "BoxVoice", dependencies: ["CEspeak", "BoxHardware"]),
        // The support bundle's redaction and review manifest (pure text in, text out).
        .target(name: "SupportBundle"),
        // The control socket's protocol, shared by boxd and boxctl.
        .target(name: "BoxControl", dependencies: ["DoseCore", "BoxWords"]),
        // boxd.toml, read and checked (TOML parsed in a child first): boxd's and the bridge's,
        // with nothing of the daemon's.
        .target(name: "ConfigFile", dependencies: ["DoseCore", "CZlib", .product(name: "TOMLKit", package: "TOMLKit")]),
        // What a program run by systemd says to it: sd_notify, journal log levels (boxd's and the bridge's).
        .target(name: "SystemdSupport", dependencies: ["BoxControl", .product(name: "Logging", package: "swift-log")]),
        // The service: engine, clocks, control socket.
        .target(name: "BoxDaemon", dependencies: [
            "DoseCore", "BoxWords", "NightLog", "BoxHardware", "BoxALSA", "BoxGPIO", "BoxVoice", "BoxControl", "CBoxSys", "ConfigFile", "SystemdSupport",
            "PacingCore", "CQuietRuntime",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The three programs' code, as libraries: the three executables below and dosetap-box run them.
        .target(name: "BoxdCommand", dependencies: [
            "BoxDaemon", "BoxControl", "ConfigFile", "SystemdSupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "BoxctlCommand", dependencies: [
            "BoxControl", "BoxWords", "DoseCore", "NightLog", "CBoxSys", "ClinicianReport", "SupportBundle",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The caregiver bridge. Follows boxd's feed on the control socket and publishes to an MQTT
        // broker; reads boxd.toml with boxd's own reader (ConfigFile), depends on nothing of boxd's
        // (a test reads the package graph).
        .target(name: "BridgeCommand", dependencies: [
            "CaregiverBridge", "BoxMQTT", "BoxControl", "ConfigFile", "SystemdSupport", "CBoxSys",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Each program on its own, for development and the tests; their share/ holds the man pages
        // and completions ArgumentParser generates from them.
        .executableTarget(name: "boxd", dependencies: ["BoxdCommand"], exclude: ["share"]),
        .executableTarget(name: "boxctl", dependencies: ["BoxctlCommand"], exclude: ["share"]),
        .executableTarget(name: "boxd-mqtt", dependencies: ["BridgeCommand"], exclude: ["share"]),
        // What the package installs: the three in one program, chosen by the name it is called by.
        .executableTarget(name: "dosetap-box", dependencies: [
            "BoxdCommand", "BoxctlCommand", "BridgeCommand",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .executableTarget(name: "NightLogBench", dependencies: [
            "NightLog", "DoseCore",
            // The baseline of a dose's write: a bare SQLite commit as the log made before #29.
            .product(name: "GRDB", package: "GRDB.swift"),
        ], path: "bench/NightLogBench"),

        // A deterministic random generator shared by tests and benchmarks.
        .target(name: "TestSupport"),

        .testTarget(name: "DoseCoreTests", dependencies: ["DoseCore", "BoxWords", "TestSupport"], swiftSettings: optimized),
        // The words pinned: the seeds' texts where they are rendered, the voice's sentences.
        .testTarget(name: "BoxWordsTests", dependencies: ["BoxWords", "DoseCore"]),
        .testTarget(name: "PacingCoreTests", dependencies: ["PacingCore", "DoseCore"]),
        .testTarget(name: "SupportBundleTests", dependencies: ["SupportBundle"]),
        .testTarget(name: "BoxVoiceTests", dependencies: ["BoxVoice", "BoxHardware", "BoxALSA", "BoxWords", "DoseCore"]),
        .testTarget(name: "NightLogTests", dependencies: ["NightLog", "DoseCore"],
                    // Read through #filePath: a log written by an older build (see its script).
                    exclude: ["Fixtures"]),
        // ALSATests call alsa-lib beyond what CALSA loads (a capture of what was played): linked.
        .testTarget(name: "BoxHardwareTests", dependencies: ["BoxHardware", "BoxALSA", "DoseCore"],
                    linkerSettings: [.linkedLibrary("asound")]),
        // With BoxDaemon: a GPIO edge and a simulated press meet in the engine's one pump.
        .testTarget(name: "BoxGPIOTests", dependencies: [
            "BoxGPIO", "BoxHardware", "DoseCore", "BoxDaemon", "ConfigFile", "NightLog",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Against a real mosquitto broker started by the tests (password file, TLS with a CA made by openssl).
        .testTarget(name: "BoxMQTTTests", dependencies: ["BoxMQTT", "TestSupport"]),
        // Fixtures: Home Assistant's discovery keys, read through #filePath.
        .testTarget(name: "CaregiverBridgeTests", dependencies: ["CaregiverBridge", "BoxControl", "DoseCore"], exclude: ["Fixtures"]),
        // The protocol module's own: the status as read, the client's failures on a real socket.
        .testTarget(name: "BoxControlTests", dependencies: ["BoxControl", "DoseCore"]),
        // The report's page from nights given in process (the whole path is SimulatedBoxTests').
        .testTarget(name: "ClinicianReportTests", dependencies: ["ClinicianReport", "DoseCore"]),
        .testTarget(name: "BoxDaemonTests", dependencies: ["BoxDaemon", "CBoxSys", "BoxControl", "ConfigFile", "DoseCore", "NightLog", "BoxHardware", "TestSupport"]),
        // The built boxd and boxctl binaries on simulated hardware and clock, driven like a person would.
        // Fixtures: the report's screenshot shown in the README (DOSETAP_REPORT_PNG=… rewrites it).
        .testTarget(name: "SimulatedBoxTests", dependencies: ["BoxControl", "BoxDaemon", "BoxHardware", "BoxVoice", "BoxWords", "DoseCore", "TestSupport"], exclude: ["Fixtures"]),
        // The package's graph as SwiftPM reads it (swift package dump-package).
        .testTarget(name: "PackageGraphTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// DOSETAP_TEST_TARGETS=A,B keeps only those test targets: scripts/trixie-test builds the GPIO
// tests (and what they need) in a Debian 13 root, not the whole suite a second time.
if let kept = Context.environment["DOSETAP_TEST_TARGETS"] {
    let names = Set(kept.split(separator: ",").map(String.init))
    package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
}

// The package's build (debian/rules) gives dosetap-box ICU's data trimmed (scripts/lib/icu-data,
// #34): DOSETAP_ICU_DATA is the file, DOSETAP_ICU_SYMBOL the symbol ICU looks for. Any other
// build links the toolchain's whole copy, as before.
if let data = Context.environment["DOSETAP_ICU_DATA"], let symbol = Context.environment["DOSETAP_ICU_SYMBOL"] {
    package.targets.append(.target(name: "CICUData", cSettings: [
        .define("DOSETAP_ICU_DATA", to: "\"\(data)\""), .define("DOSETAP_ICU_SYMBOL", to: symbol),
    ]))
    package.targets.first { $0.name == "dosetap-box" }?.dependencies.append("CICUData")
}

// libFuzzer targets (Tests/Fuzz), seen only by scripts/fuzz (DOSETAP_FUZZ=1, its own scratch path).
// They need the libFuzzer runtime, which only -sanitize=fuzzer links, so an ordinary build must not
// see them. The flag goes on this package's library targets and the fuzz targets only, not through
// -Xswiftc: that also reaches ConstantsEmbedder (the build-tool plugin's executable), whose link
// then fails on two mains, its own and libFuzzer's.
if Context.environment["DOSETAP_FUZZ"] == "1" {
    let fuzzer: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer"])]
    for target in package.targets where target.type == .regular {
        target.swiftSettings = (target.swiftSettings ?? []) + fuzzer
    }
    package.targets += [
        // LLVMFuzzerRunDriver's declaration: SwiftPM makes main the target's own, so the targets call libFuzzer.
        .systemLibrary(name: "CLibFuzzer", path: "Tests/Fuzz/CLibFuzzer"),
        .executableTarget(name: "FuzzConfig", dependencies: ["BoxDaemon", "ConfigFile", "CLibFuzzer"], path: "Tests/Fuzz/FuzzConfig",
                          swiftSettings: fuzzer, linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]),
        .executableTarget(name: "FuzzProtocol", dependencies: ["BoxControl", "CLibFuzzer"], path: "Tests/Fuzz/FuzzProtocol",
                          swiftSettings: fuzzer,
                          linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]),
    ]
}
