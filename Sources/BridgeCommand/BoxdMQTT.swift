import ArgumentParser
import BoxControl
import BoxMQTT
import CBoxSys
import CaregiverBridge
import ConfigFile
import Foundation
import Logging
import SystemdSupport
#if canImport(Glibc)
import Glibc
#endif

/// boxd-mqtt: the caregiver bridge. It follows boxd's event feed on the control socket and
/// publishes it to an MQTT broker (and Home Assistant's discovery); it records nothing.
/// Public for the programs that run it: `boxd-mqtt` and the multi-call `dosetap-box`.
public struct BoxdMQTT: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "boxd-mqtt",
        abstract: "DoseTap Box: publish the night's events to an MQTT broker, for caregivers and Home Assistant.",
        discussion: "Reads [mqtt] from boxd's config. The password comes from the systemd credential mqtt-password or mqtt.password_file. Exits 0 when [mqtt] is not enabled.")

    @Option(help: "boxd's config file (TOML).")
    var config: String = "/etc/boxd/boxd.toml"

    @Option(help: "boxd's control socket.")
    var socket: String = BoxPaths.defaultSocket

    @Option(help: "Where the cursor is kept. Default: $STATE_DIRECTORY or /var/lib/boxd-mqtt.")
    var stateDir: String?

    @Flag(help: "Log debug messages.")
    var verbose = false

    @Option(name: .customLong("vet-config-stdin"), help: .hidden)
    var vetConfigStdin: String?

    /// sysexits' EX_CONFIG: the unit does not restart on it (RestartPreventExitStatus=).
    static let configExit: Int32 = 78

    public func run() throws {
        if let path = vetConfigStdin { TOMLIsolation.runChild(path: path) }
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: level) }
        let logger = Logger(label: "boxd-mqtt")
        let env = ProcessInfo.processInfo.environment

        let link: CaregiverLinkConfig
        do {
            guard let l = try BoxConfig.load(path: config, isolation: .boxd).caregiverLink else {
                print("boxd-mqtt: the caregiver link is off (set enabled = true in [mqtt] of \(config)); nothing to do")
                return
            }
            // Here, not in libmosquitto: it says only "Invalid function arguments" for a missing file.
            try l.checkTLSFiles(mustRead: true)
            link = l
        } catch {
            fail("\(error)", code: Self.configExit)
        }
        let password: String?
        do { password = try Password.read(passwordFile: link.passwordFile, environment: env) } catch {
            fail("\(error)", code: Self.configExit)
        }

        let stateDir = URL(fileURLWithPath: stateDir ?? env["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init) ?? "/var/lib/boxd-mqtt")
        do { try FileManager.default.createDirectory(at: stateDir, withIntermediateDirectories: true) } catch {
            fail("cannot create the state directory \(stateDir.path): \(error.localizedDescription)", code: 73)
        }
        let cursorFile = CursorFile(directory: stateDir)
        let saved: Int64?
        do { saved = try cursorFile.load() } catch { fail("\(error)", code: Self.configExit) }

        var settings = MQTTClient.Settings(host: link.host, port: link.port, clientID: "boxd-mqtt-\(link.boxID)",
                                           keepaliveSeconds: link.keepaliveSeconds)
        settings.username = link.username
        settings.password = password
        settings.tls = link.tlsCA.map { MQTTClient.TLS(caFile: $0, certFile: link.tlsCert, keyFile: link.tlsKey) }
        let topics = BridgeTopics(base: link.baseTopic, boxID: link.boxID, discoveryPrefix: link.discoveryPrefix)
        let bridge: Bridge
        do {
            bridge = try Bridge(options: .init(topics: topics, socketPath: socket, cursorFile: cursorFile), mqtt: settings,
                                cursor: saved, logger: logger)
        } catch {
            fail("\(error)", code: Self.configExit)
        }
        logger.info("publishing to \(link.host):\(link.port)\(link.tlsCA == nil ? "" : " (TLS)") under \(link.baseTopic)/\(link.boxID); cursor \(saved.map(String.init) ?? "none (a first start: from now)")")

        signal(SIGPIPE, SIG_IGN)
        for sig in [SIGTERM, SIGINT] { signal(sig, SIG_IGN) }
        let stops = [SIGTERM, SIGINT].map { sig in
            let source = DispatchSource.makeSignalSource(signal: sig)
            source.setEventHandler {
                logger.info("stopping")
                bridge.stop()
                Foundation.exit(0)
            }
            source.resume()
            return source
        }
        SystemdNotifier().notify("READY=1")
        // The start's code (config, options, TLS set-up) is done with: unmapped, as boxd does.
        let released = box_release_start_code()
        if released < 0 { logger.notice("start code left mapped: \(String(cString: strerror(Int32(-released))))") }
        bridge.run()
        withExtendedLifetime(stops) {}
    }

    func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("boxd-mqtt: \(message)\n".utf8))
        Foundation.exit(code)
    }
}
