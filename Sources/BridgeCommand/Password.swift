import Foundation

/// The broker password: the systemd credential `mqtt-password` when the unit passes one
/// (LoadCredential=), else `[mqtt] password_file`. Never in boxd.toml, which every boxd
/// user can read.
enum Password {
    static let credentialName = "mqtt-password"

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func read(passwordFile: String?, environment: [String: String]) throws(Problem) -> String? {
        var path = passwordFile
        var what = "mqtt.password_file"
        if let dir = environment["CREDENTIALS_DIRECTORY"], FileManager.default.fileExists(atPath: "\(dir)/\(credentialName)") {
            path = "\(dir)/\(credentialName)"
            what = "the credential \(credentialName)"
        }
        guard let path else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "\(what): cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Problem(description: "\(what): \(path) is not UTF-8 text") }
        // One line; a trailing newline (echo, an editor) is not part of the password.
        let password = text.hasSuffix("\r\n") ? String(text.dropLast(2)) : text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard !password.isEmpty, !password.contains("\n") else {
            throw Problem(description: "\(what): \(path) must hold the password on one line")
        }
        return password
    }
}
