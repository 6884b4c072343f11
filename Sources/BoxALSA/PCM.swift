import CALSA
import Foundation

// MARK: - The PCM handle

/// An open, configured playback PCM. Not Sendable: it stays on the thread that opened it.
struct PCM {
    struct Failure: Error {
        let message: String
    }

    let handle: OpaquePointer
    let bufferFrames: Int
    /// snd_pcm_set_params starts the stream once this many frames are queued.
    let startFrames: Int

    static func open(device: String, sampleRate: Int, latencyMicros: UInt32) -> Result<PCM, Failure> {
        calsa_error_reset()
        var handle: OpaquePointer?
        // Non-blocking open: a busy hw device fails at once with EBUSY instead of hanging the
        // thread; writes are switched back to blocking below.
        var rc = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard rc >= 0, let handle else {
            return .failure(Failure(message: "ALSA device \(device) unavailable: \(describe(rc))"))
        }
        rc = snd_pcm_nonblock(handle, 0)
        if rc >= 0 {
            rc = snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                    1, UInt32(clamping: sampleRate), 1, latencyMicros)
        }
        guard rc >= 0 else {
            snd_pcm_close(handle)
            let hint = device.hasPrefix("hw:") ? " (a plughw: device converts)" : ""
            return .failure(Failure(message: "ALSA device \(device) rejected 16-bit mono \(sampleRate) Hz: \(describe(rc))\(hint)"))
        }
        var buffer: snd_pcm_uframes_t = 0
        var period: snd_pcm_uframes_t = 0
        let known = snd_pcm_get_params(handle, &buffer, &period) >= 0 && buffer > 0 && period > 0
        let frames = known ? Int(buffer) : max(Int(latencyMicros) * sampleRate / 1_000_000, 1)
        calsa_error_reset()  // so a later write error does not quote an old open-time message
        return .success(PCM(handle: handle, bufferFrames: frames,
                            startFrames: known ? Int(buffer / period * period) : frames))
    }

    /// Discards what is buffered and makes the stream ready for the next sound.
    func reset() {
        snd_pcm_drop(handle)
        snd_pcm_prepare(handle)
    }

    func close() { snd_pcm_close(handle) }

    func problem(device: String) -> String? {
        snd_pcm_state(handle) == SND_PCM_STATE_DISCONNECTED ? "ALSA device \(device) disconnected" : nil
    }

    /// "No such file or directory (-2)", plus alsa-lib's own first message when it gave one.
    static func describe(_ code: Int32) -> String {
        let text = snd_strerror(code).map { String(cString: $0) } ?? "error"
        let detail = String(cString: calsa_error_text())
        return "\(text) (\(code))" + (detail.isEmpty ? "" : "; alsa-lib: \(detail)")
    }
}
