import BoxHardware
import DoseCore
import Foundation
import Synchronization
import Testing

/// A fresh path under the temporary directory; the caller removes it.
func temporaryPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("boxhw-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}

func removeTemporary(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
}

/// A hand-moved clock standing in for the sim clock.
final class TestClock: Sendable {
    private let now = Mutex(Duration.zero)
    func advance(_ d: Duration) { now.withLock { $0 += d } }
    var read: @Sendable () -> Duration { { [self] in now.withLock { $0 } } }
}

@Suite("WAV files")
struct WavFileTests {
    @Test("encode and decode round-trip")
    func roundTrip() throws {
        let samples = ToneSynth.samples(for: .success, volume: 0.9) + [Int16.min, Int16.max, 0, -1]
        let bytes = WavFile.encode(samples, sampleRate: 22_050)
        #expect(bytes.count == WavFile.headerSize + samples.count * 2)
        let audio = try WavFile.decode(bytes)
        #expect(audio == WavAudio(sampleRate: 22_050, channels: 1, samples: samples))
        #expect(abs(audio.duration.seconds - Double(samples.count) / 22_050) < 1e-9)
    }

    @Test("the streaming writer leaves a valid file after every append")
    func writer() throws {
        let path = temporaryPath("w.wav")
        defer { removeTemporary(path) }
        let writer = try WavWriter(path: path, sampleRate: 16_000)
        #expect(try WavFile.read(path: path).samples.isEmpty)
        let a = ToneSynth.samples(for: .status, volume: 1)
        let b = ToneSynth.samples(for: .warning, volume: 0.3)
        try writer.append(a)
        #expect(try WavFile.read(path: path).samples == a)
        try writer.append(b)
        try writer.close()
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.count == 44 + (a.count + b.count) * 2)
        // RIFF size = file - 8, data size = file - 44, little-endian.
        let riff = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        #expect(riff == bytes.count - 8)
        let audio = try WavFile.read(path: path)
        #expect(audio.samples == a + b)
        #expect(audio.sampleRate == 16_000)
        #expect(writer.frameCount == a.count + b.count)
    }

    @Test("the reader skips unknown chunks, trusts the file over a bad size and rejects non-WAV")
    func readerEdgeCases() throws {
        let samples: [Int16] = [1, -2, 3, -4, 5]
        var bytes = WavFile.encode(samples, sampleRate: 8000)
        // A LIST chunk (odd size, padded) between fmt and data, as some writers add.
        let list: [UInt8] = Array("LIST".utf8) + [3, 0, 0, 0] + [0x61, 0x62, 0x63, 0]
        bytes.insert(contentsOf: list, at: 36)
        #expect(try WavFile.decode(bytes).samples == samples)
        // An unpatched header (data size 0) reads to the end of the file.
        var unpatched = WavFile.encode(samples, sampleRate: 8000)
        unpatched.replaceSubrange(40..<44, with: [0, 0, 0, 0])
        #expect(try WavFile.decode(unpatched).samples == samples)
        // A size past the end is cut to what is there.
        let truncated = Array(WavFile.encode(samples, sampleRate: 8000).dropLast(4))
        #expect(try WavFile.decode(truncated).samples == [1, -2, 3])
        #expect(throws: WavError.notRIFF) { try WavFile.decode(Array("hello, world".utf8)) }
        var float = WavFile.encode(samples, sampleRate: 8000)
        float[20] = 3  // IEEE float
        #expect(throws: WavError.unsupported("format tag 3")) { try WavFile.decode(float) }
    }
}

@Suite("WAV sink")
struct WavSinkTests {
    @Test("logs each sound with the injected clock's time, name, level and volume, and writes it")
    func logsAndWrites() throws {
        let path = temporaryPath("sink.wav")
        defer { removeTemporary(path) }
        let clock = TestClock()
        let sink = WavSink(path: path, clock: clock.read)
        #expect(sink.fault == nil)

        clock.advance(.seconds(90))
        sink.play(.success, volume: 0.8, repeatFor: nil)
        clock.advance(.minutes(150))
        sink.play(.alarm(.mainAlarm, .standard), volume: 0.6, repeatFor: .seconds(60))
        clock.advance(.seconds(12))
        sink.stop()

        let entries = sink.entries
        #expect(entries.map(\.at) == [.seconds(90), .seconds(90) + .minutes(150)])
        #expect(entries.map(\.name) == ["success", "main_alarm"])
        #expect(entries.map(\.level) == [nil, .standard])
        #expect(entries.map(\.volume) == [0.8, 0.6])
        #expect(entries[1].repeatFor == .seconds(60))
        #expect(sink.stops == [.seconds(102) + .minutes(150)])

        // One play of each (one alarm cycle), back to back.
        let expected = ToneSynth.samples(for: .success, volume: 0.8)
            + ToneSynth.samples(for: .alarm(.mainAlarm, .standard), volume: 0.6)
        #expect(sink.framesWritten == expected.count)
        let audio = try WavFile.read(path: path)
        #expect(audio.sampleRate == ToneSynth.defaultSampleRate)
        #expect(audio.channels == 1)
        #expect(audio.samples == expected)

        sink.clear()
        #expect(sink.entries.isEmpty && sink.stops.isEmpty)
        #expect(try WavFile.read(path: path).samples.count == expected.count, "clear keeps the file")
    }

    @Test("while failing it reports a fault and records nothing, then recovers")
    func failingSwitch() throws {
        let path = temporaryPath("fail.wav")
        defer { removeTemporary(path) }
        let clock = TestClock()
        let sink = WavSink(path: path, clock: clock.read)
        sink.play(.alarm(.followUp, .critical), volume: 1, repeatFor: nil)
        let frames = sink.framesWritten

        sink.setFailing(true)
        #expect(sink.fault == "audio sink failed (simulated)")
        clock.advance(.seconds(5))
        sink.play(.alarm(.followUp, .critical), volume: 1, repeatFor: nil)
        sink.stop()
        #expect(sink.entries.count == 1)
        #expect(sink.stops.isEmpty)
        #expect(sink.framesWritten == frames)
        #expect(try WavFile.read(path: path).samples.count == frames)

        sink.setFailing(false)
        #expect(sink.fault == nil)
        sink.play(.status, volume: 1, repeatFor: nil)
        #expect(sink.entries.map(\.name) == ["follow_up", "status"])
        #expect(sink.entries.last?.at == .seconds(5))
    }

    @Test("an unwritable path is a fault, but the log still works")
    func unwritable() {
        let sink = WavSink(path: "/nonexistent-dir/x/out.wav", clock: { .zero })
        #expect(sink.fault?.contains("/nonexistent-dir/x/out.wav") == true)
        sink.play(.error, volume: 1, repeatFor: nil)
        #expect(sink.entries.map(\.name) == ["error"])
        #expect(sink.framesWritten == 0)
    }

    @Test("without a path it only logs")
    func logOnly() {
        let sink = WavSink(clock: { .seconds(1) })
        sink.play(.stop, volume: 1, repeatFor: nil)
        #expect(sink.fault == nil)
        #expect(sink.entries == [SoundLogEntry(at: .seconds(1), sound: .stop, volume: 1, repeatFor: nil)])
    }
}
