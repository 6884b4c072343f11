import Foundation
import Testing
import SupportBundle

/// The support bundle's automatic redaction (SSOT 2.4.3: "PII minimized with automatic
/// redaction + required user review"): each kind taken out and counted, the rest untouched.
@Suite struct RedactionTests {
    let redaction = Redaction(hostname: "bedside-pi", users: ["sleeper", "al"])

    @Test func eachKindIsTakenOutAndCounted() {
        let text = """
            2026-11-22T01:12:00+0000 bedside-pi boxd[812]: caregiver link DOWN: connect to 192.168.1.20:8883 refused
            2026-11-22T01:12:01+0000 Bedside-Pi boxd[812]: state /home/sleeper/.config and user sleeper, mail nurse@example.org
            mqtt password = hunter2 token: abc123 wlan0 b8:27:eb:12:34:56
            """
        let r = redaction.redact(text)
        #expect(r.text == """
            2026-11-22T01:12:00+0000 <host> boxd[812]: caregiver link DOWN: connect to <ip>:8883 refused
            2026-11-22T01:12:01+0000 <host> boxd[812]: state /home/<user>/.config and user <user>, mail <email>
            mqtt password = <secret> token: <secret> wlan0 <mac>
            """)
        #expect(r.counts == ["host name": 2, "ip address": 1, "home directory": 1, "user name": 1, "e-mail address": 1, "secret": 2,
                             "hardware address": 1])
    }

    @Test func whatSupportNeedsStays() {
        // Times, versions, dose events, ids and short names that are words stay as they are.
        let text = "dose1,2026-11-21T22:00:00.000Z,{\"is_early\":false} boxd 0.12.0 phase active; al dente; v1.2.3.4x"
        let r = redaction.redact(text)
        #expect(r.text == text)
        #expect(r.counts.isEmpty)
    }

    @Test func theManifestShowsEachFileAndWhatWasTakenOut() {
        let m = Manifest(files: [
            Manifest.File(name: "debug_log.txt", what: "boxd's latest journal lines", text: "a\nb\nc\nd", redactions: ["ip address": 2]),
            Manifest.File(name: "events.csv", what: "doses", text: "id,event_type\n", redactions: [:]),
        ])
        #expect(m.text == """
            debug_log.txt (7 bytes): boxd's latest journal lines; redacted: ip address (2)
                | a
                | b
                | c
            events.csv (14 bytes): doses; nothing redacted
                | id,event_type
                |\u{20}
            """)
    }
}
