import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TOMLKit

/// `[mqtt]`: the caregiver link. The bridge (boxd-mqtt) uses it; boxd itself touches no
/// network and only checks it, so `boxd --check-config` names a mistake before the night.
/// Off unless `enabled = true`.
public struct CaregiverLinkConfig: Sendable, Hashable {
    public var host: String
    public var port: Int
    /// The CA that signed the broker's certificate; nil: no TLS.
    public var tlsCA: String?
    /// A client certificate and its key (optional, both or neither; needs tls_ca).
    public var tlsCert: String?
    public var tlsKey: String?
    public var username: String?
    /// The password lives in this file (or a systemd credential), never in boxd.toml.
    public var passwordFile: String?
    /// Topics are `<base_topic>/<box_id>/…`.
    public var baseTopic: String
    public var boxID: String
    public var keepaliveSeconds: Int
    /// Home Assistant's discovery prefix.
    public var discoveryPrefix: String

    public init(host: String, port: Int, tlsCA: String?, tlsCert: String?, tlsKey: String?, username: String?, passwordFile: String?,
                baseTopic: String, boxID: String, keepaliveSeconds: Int, discoveryPrefix: String) {
        self.host = host
        self.port = port
        self.tlsCA = tlsCA
        self.tlsCert = tlsCert
        self.tlsKey = tlsKey
        self.username = username
        self.passwordFile = passwordFile
        self.baseTopic = baseTopic
        self.boxID = boxID
        self.keepaliveSeconds = keepaliveSeconds
        self.discoveryPrefix = discoveryPrefix
    }
}

extension Reader {
    static let mqttKeys: Set<String> = ["enabled", "host", "port", "tls_ca", "tls_cert", "tls_key", "username", "password_file",
                                        "base_topic", "box_id", "keepalive_seconds", "discovery_prefix"]
    static let portRange = 1...65_535
    /// libmosquitto refuses a keepalive under 5 s; an hour is as long as a dead box may look alive.
    static let keepaliveRange = 5...3600

    /// The `[mqtt]` section, every present key checked even while the link is off; nil when off.
    mutating func mqtt() throws(ConfigError) -> CaregiverLinkConfig? {
        guard let t = try table("mqtt") else {
            sources["mqtt.enabled"] = "default"
            return nil
        }
        if t["password"] != nil {
            throw ConfigError("mqtt.password", "a password never goes in boxd.toml (every boxd user can read it): put it in a file only the bridge can read and name that file with mqtt.password_file, or use a systemd credential")
        }
        try checkKeys(t, "mqtt", allowed: Self.mqttKeys)
        let enabled = try bool(t, "mqtt", "enabled", default: false)
        let host = try string(t, "mqtt", "host", default: "")
        if enabled, host.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ConfigError("mqtt.host", "is required when mqtt.enabled = true (the broker's host name or address)")
        }
        func path(_ name: String) throws(ConfigError) -> String? {
            guard t[name] != nil else { return nil }
            let p = try string(t, "mqtt", name, default: "")
            guard p.hasPrefix("/") else { throw ConfigError("mqtt.\(name)", "\"\(p)\" must be an absolute path") }
            return p
        }
        let ca = try path("tls_ca"), cert = try path("tls_cert"), key = try path("tls_key")
        if (cert == nil) != (key == nil) {
            throw ConfigError(cert == nil ? "mqtt.tls_cert" : "mqtt.tls_key", "a client certificate needs both mqtt.tls_cert and mqtt.tls_key")
        }
        if cert != nil, ca == nil { throw ConfigError("mqtt.tls_ca", "is required with a client certificate (TLS needs the broker's CA)") }
        let port = try int(t, "mqtt", "port", default: ca == nil ? 1883 : 8883)
        guard Self.portRange.contains(port) else { throw ConfigError("mqtt.port", "\(port) is not a port (1 to 65535)") }
        let keepalive = try seconds(t, "mqtt", "keepalive_seconds", default: 30, "5 to 3600")
        guard Self.keepaliveRange.contains(keepalive) else {
            throw ConfigError("mqtt.keepalive_seconds", "\(keepalive) must be between 5 and 3600 seconds")
        }
        let username = t["username"] == nil ? nil : try string(t, "mqtt", "username", default: "")
        let passwordFile = try path("password_file")
        let base = try topicLevels(t, "base_topic", default: "dosetap", slashes: true)
        let boxID = try topicLevels(t, "box_id", default: Self.defaultBoxID, slashes: false)
        let discovery = try topicLevels(t, "discovery_prefix", default: "homeassistant", slashes: true)
        guard enabled else { return nil }
        return CaregiverLinkConfig(host: host, port: port, tlsCA: ca, tlsCert: cert, tlsKey: key, username: username,
                                   passwordFile: passwordFile, baseTopic: base, boxID: boxID, keepaliveSeconds: keepalive,
                                   discoveryPrefix: discovery)
    }

    /// Topic text: letters, digits, `_` and `-` (and `/` between levels where allowed), so no
    /// MQTT wildcard and a valid Home Assistant object id.
    mutating func topicLevels(_ t: TOMLTable, _ name: String, default d: String, slashes: Bool) throws(ConfigError) -> String {
        let text = try string(t, "mqtt", name, default: d)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: slashes ? "_-/" : "_-"))
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }),
              !text.hasPrefix("/"), !text.hasSuffix("/"), !text.contains("//") else {
            throw ConfigError("mqtt.\(name)", "\"\(text)\" may hold only letters, digits, _ and -\(slashes ? " (and / between levels)" : "")")
        }
        return text
    }

    /// This machine's host name as a box id (letters, digits, _ and - only). gethostname(2)
    /// itself: Foundation's host name may ask DNS, and boxd runs without a network.
    static var defaultBoxID: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let name = gethostname(&buffer, buffer.count - 1) == 0 ? String(cString: buffer) : ""
        let first = name.split(separator: ".").first.map(String.init) ?? ""
        let cleaned = String(first.unicodeScalars.map { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") ? Character($0) : "_" })
        return cleaned.isEmpty ? "box" : cleaned
    }
}

extension CaregiverLinkConfig {
    /// The TLS files `[mqtt]` names, on this machine, each problem with its key: libmosquitto
    /// only says "Invalid function arguments provided" for a CA file that is not there.
    /// `mustRead`: boxd-mqtt reads them, so one it may not read is an error too; boxd
    /// (`--check-config`) only asks that each exists, as a key may be readable by the bridge
    /// alone. A directory boxd may not look into passes: it cannot tell.
    public func checkTLSFiles(mustRead: Bool) throws(ConfigError) {
        for (key, path) in [("mqtt.tls_ca", tlsCA), ("mqtt.tls_cert", tlsCert), ("mqtt.tls_key", tlsKey)] {
            guard let path else { continue }
            var st = stat()
            if stat(path, &st) != 0 {
                let err = errno
                if err == EACCES, !mustRead { continue }
                throw ConfigError(key, "cannot read \(path): \(Self.reason(err))")
            }
            if (st.st_mode & S_IFMT) == S_IFDIR { throw ConfigError(key, "cannot read \(path): is a directory") }
            guard mustRead else { continue }
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw ConfigError(key, "cannot read \(path): \(Self.reason(errno))") }
            close(fd)
        }
    }

    /// The system's words for a file error, short: "no such file", "permission denied".
    static func reason(_ err: Int32) -> String {
        switch err {
        case ENOENT, ENOTDIR: "no such file"
        case EACCES, EPERM: "permission denied"
        default: String(cString: strerror(err)).lowercased()
        }
    }
}
