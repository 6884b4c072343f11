import CEspeak
import Foundation

/// Speech synthesised on the box with espeak-ng (#15): no network, no cloud voice. Text in,
/// 16-bit mono PCM out, for the same ALSA player as the tones (one device, one volume, one
/// fault path). espeak-ng keeps global state and is not thread-safe: one lock serialises
/// every call, and the library is initialised once.
public final class Synthesizer: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static let shared = Synthesizer()
    private let lock = NSLock()
    private var sampleRate: Int32 = 0
    /// What `known` found for each name asked: espeak-ng reads every voice file again at each
    /// listing, and its voices do not change while boxd runs (the start asked twice: #34).
    private var knownVoices: [String: Bool] = [:]

    private init() {}

    /// Hands what espeak-ng gives the callback on; passed through the events' user_data.
    private final class Collector {
        let onChunk: (UnsafeBufferPointer<Int16>, Int) -> Bool
        let rate: Int
        init(rate: Int, _ onChunk: @escaping (UnsafeBufferPointer<Int16>, Int) -> Bool) {
            self.rate = rate
            self.onChunk = onChunk
        }
    }

    /// The samples of `text` in `voice` (an espeak-ng voice name: "en", "en-us", "de"…), at
    /// `sampleRate` Hz (espeak-ng's own, 22050).
    public func synthesize(_ text: String, voice: String = "en") throws(Failure) -> (samples: [Int16], sampleRate: Int) {
        var samples: [Int16] = []
        let rate = try synthesize(text, voice: voice) { chunk, _ in
            samples.append(contentsOf: chunk)
            return true
        }
        return (samples, rate)
    }

    /// Synthesises `text` a chunk at a time (espeak-ng's ~60 ms buffers, in order), handing
    /// each and the rate to `onChunk` as it is made, which returns false to stop early.
    /// Returns the rate.
    /// The first chunk comes once the first clause is made, long before the last.
    public func synthesize(_ text: String, voice: String = "en",
                           onChunk: @escaping (UnsafeBufferPointer<Int16>, Int) -> Bool) throws(Failure) -> Int {
        lock.lock()
        defer { lock.unlock() }
        try initialise()
        try setVoice(voice)
        let collector = Collector(rate: Int(sampleRate), onChunk)
        let context = Unmanaged.passUnretained(collector).toOpaque()
        let bytes = Array(text.utf8CString)
        let result = withExtendedLifetime(collector) {
            bytes.withUnsafeBufferPointer { buf in
                espeak_Synth(buf.baseAddress, buf.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, context)
            }
        }
        guard result == EE_OK else { throw Failure(description: "espeak-ng could not speak (error \(result.rawValue))") }
        guard espeak_Synchronize() == EE_OK else { throw Failure(description: "espeak-ng did not finish") }
        return Int(sampleRate)
    }

    /// espeak-ng's phonemes for `text` ("as a person would read it"): lets a test check that
    /// the right sentence was said without a speech recogniser.
    public func phonemes(_ text: String, voice: String = "en") throws(Failure) -> String {
        lock.lock()
        defer { lock.unlock() }
        try initialise()
        try setVoice(voice)
        var out: [String] = []
        let bytes = Array(text.utf8CString)
        bytes.withUnsafeBufferPointer { buf in
            var pointer: UnsafeRawPointer? = UnsafeRawPointer(buf.baseAddress)
            while let p = pointer, p.load(as: CChar.self) != 0 {
                guard let phonemes = espeak_TextToPhonemes(&pointer, Int32(espeakCHARS_UTF8), 0) else { break }
                out.append(String(cString: phonemes))
            }
        }
        return out.joined(separator: " ")
    }

    /// Whether espeak-ng has a voice of this name or language ("en", "en-us", "de").
    public func hasVoice(_ voice: String) throws(Failure) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        try initialise()
        return known(voice)
    }

    /// espeak-ng falls back to a default for a name it does not know; the box says so instead.
    private func setVoice(_ voice: String) throws(Failure) {
        guard known(voice), espeak_SetVoiceByName(voice) == EE_OK else { throw Failure(description: "espeak-ng has no voice named \(voice)") }
    }

    private func known(_ voice: String) -> Bool {
        if let answer = knownVoices[voice] { return answer }
        var known = false
        if var list = espeak_ListVoices(nil) {
            while let v = list.pointee {
                let id = v.pointee.identifier.map { String(cString: $0) } ?? ""
                // languages: (priority byte, name, NUL) pairs; the first name is the voice's language.
                let language = v.pointee.languages.map { String(cString: $0 + 1) } ?? ""
                if id == voice || id.hasSuffix("/" + voice) || language == voice { known = true }
                list += 1
            }
        }
        knownVoices[voice] = known
        return known
    }

    private func initialise() throws(Failure) {
        guard sampleRate == 0 else { return }
        if let why = box_espeak_unavailable() { throw Failure(description: "espeak-ng cannot be loaded: \(String(cString: why))") }
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else { throw Failure(description: "espeak-ng could not start (its data not installed? espeak-ng-data)") }
        sampleRate = rate
        espeak_SetSynthCallback { wav, count, events in
            guard let wav, count > 0, let user = events?.pointee.user_data else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(user).takeUnretainedValue()
            return collector.onChunk(UnsafeBufferPointer(start: wav, count: Int(count)), collector.rate) ? 0 : 1  // 1: stop
        }
    }
}
