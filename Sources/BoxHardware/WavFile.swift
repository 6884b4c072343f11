import Foundation

// A minimal RIFF/WAVE PCM16 writer and reader: the WAV sink writes what would have played,
// and the tests read back both that and what alsa-lib's `file` plugin captured.

public enum WavError: Error, Sendable, Hashable, CustomStringConvertible {
    case notRIFF
    case missingChunk(String)
    case unsupported(String)
    case io(String)

    public var description: String {
        switch self {
        case .notRIFF: "not a RIFF/WAVE file"
        case .missingChunk(let id): "WAV file has no \(id) chunk"
        case .unsupported(let what): "unsupported WAV: \(what)"
        case .io(let message): message
        }
    }
}

/// Decoded 16-bit PCM: samples interleaved when there are several channels.
public struct WavAudio: Sendable, Hashable {
    public var sampleRate: Int
    public var channels: Int
    public var samples: [Int16]

    public init(sampleRate: Int, channels: Int = 1, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }
    public var duration: Duration { sampleRate > 0 ? .seconds(Double(frameCount) / Double(sampleRate)) : .zero }

    /// The first channel (all of it for mono).
    public var mono: [Int16] {
        channels <= 1 ? samples : stride(from: 0, to: samples.count, by: channels).map { samples[$0] }
    }
}

public enum WavFile {
    public static let headerSize = 44

    /// The canonical 44-byte header for 16-bit PCM.
    public static func header(sampleRate: Int, channels: Int = 1, dataBytes: Int) -> [UInt8] {
        let blockAlign = channels * 2
        var h: [UInt8] = []
        h.reserveCapacity(headerSize)
        h += Array("RIFF".utf8); h += le32(36 + dataBytes)
        h += Array("WAVE".utf8)
        h += Array("fmt ".utf8); h += le32(16)
        h += le16(1)  // PCM
        h += le16(channels); h += le32(sampleRate); h += le32(sampleRate * blockAlign)
        h += le16(blockAlign); h += le16(16)
        h += Array("data".utf8); h += le32(dataBytes)
        return h
    }

    /// A whole file in memory.
    public static func encode(_ samples: [Int16], sampleRate: Int) -> [UInt8] {
        header(sampleRate: sampleRate, dataBytes: samples.count * 2) + bytes(of: samples)
    }

    public static func write(_ samples: [Int16], sampleRate: Int, to path: String) throws {
        do {
            try Data(encode(samples, sampleRate: sampleRate)).write(to: URL(fileURLWithPath: path))
        } catch {
            throw WavError.io("cannot write \(path): \(error.localizedDescription)")
        }
    }

    public static func read(path: String) throws(WavError) -> WavAudio {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io("cannot read \(path)")
        }
        return try decode([UInt8](data))
    }

    /// Parses RIFF chunks until `fmt ` and `data`. A data size that overruns the file (a writer
    /// that died before patching its header) is cut to the bytes actually there.
    public static func decode(_ bytes: [UInt8]) throws(WavError) -> WavAudio {
        guard bytes.count >= 12, ascii(bytes, 0) == "RIFF", ascii(bytes, 8) == "WAVE" else { throw .notRIFF }
        var format: (channels: Int, rate: Int, bits: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = ascii(bytes, offset)
            let declared = u32(bytes, offset + 4)
            let start = offset + 8
            let size = min(declared, bytes.count - start)
            switch id {
            case "fmt ":
                guard size >= 16 else { throw .unsupported("fmt chunk of \(size) bytes") }
                let tag = u16(bytes, start)
                // 1 is PCM; 0xFFFE (extensible) carries PCM too, with the same first 16 bytes.
                guard tag == 1 || tag == 0xFFFE else { throw .unsupported("format tag \(tag)") }
                format = (u16(bytes, start + 2), u32(bytes, start + 4), u16(bytes, start + 14))
            case "data":
                guard let f = format else { throw .missingChunk("fmt ") }
                guard f.bits == 16 else { throw .unsupported("\(f.bits)-bit samples") }
                guard f.channels > 0 else { throw .unsupported("0 channels") }
                // An unpatched streaming header says 0: then the data runs to the end of the file.
                let length = declared == 0 ? bytes.count - start : size
                let count = length / 2
                var samples = [Int16](repeating: 0, count: count)
                for i in 0..<count {
                    samples[i] = Int16(bitPattern: UInt16(bytes[start + 2 * i]) | UInt16(bytes[start + 2 * i + 1]) << 8)
                }
                return WavAudio(sampleRate: f.rate, channels: f.channels, samples: samples)
            default:
                break
            }
            offset = start + size + (size & 1)  // chunks are padded to even sizes
        }
        throw .missingChunk(format == nil ? "fmt " : "data")
    }

    static func bytes(of samples: [Int16]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(samples.count * 2)
        for s in samples {
            let u = UInt16(bitPattern: s)
            out.append(UInt8(u & 0xFF)); out.append(UInt8(u >> 8))
        }
        return out
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    private static func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }
    private static func ascii(_ b: [UInt8], _ i: Int) -> String { String(decoding: b[i..<(i + 4)], as: UTF8.self) }
}

/// Streams mono PCM16 to a WAV file, patching the RIFF and data sizes after every append,
/// so the file on disk is valid at any moment, even if the process dies. Not thread-safe:
/// its owner serialises access (the WAV sink holds it under its lock).
public final class WavWriter {
    public let path: String
    public let sampleRate: Int
    public private(set) var frameCount = 0
    private var handle: FileHandle?

    public init(path: String, sampleRate: Int) throws(WavError) {
        self.path = path
        self.sampleRate = sampleRate
        guard FileManager.default.createFile(atPath: path, contents: Data(WavFile.header(sampleRate: sampleRate, dataBytes: 0))),
              let handle = FileHandle(forWritingAtPath: path)
        else { throw .io("cannot create \(path)") }
        self.handle = handle
    }

    deinit { try? handle?.close() }

    public func append(_ samples: [Int16]) throws(WavError) {
        guard let handle else { throw .io("\(path) is closed") }
        do {
            try handle.seek(toOffset: UInt64(WavFile.headerSize + frameCount * 2))
            try handle.write(contentsOf: Data(WavFile.bytes(of: samples)))
            frameCount += samples.count
            try patchSizes(handle)
        } catch {
            throw .io("cannot write \(path): \(error.localizedDescription)")
        }
    }

    public func close() throws(WavError) {
        guard let handle else { return }
        self.handle = nil
        do {
            try handle.close()
        } catch {
            throw .io("cannot close \(path): \(error.localizedDescription)")
        }
    }

    private func patchSizes(_ handle: FileHandle) throws {
        let dataBytes = frameCount * 2
        try handle.seek(toOffset: 4)
        try handle.write(contentsOf: Data(WavFile.le32(36 + dataBytes)))
        try handle.seek(toOffset: 40)
        try handle.write(contentsOf: Data(WavFile.le32(dataBytes)))
    }
}
