import Foundation

// Salvage: reading a WAL file's frames without SQLite (see `Salvage`).
extension Salvage {
    /// The frames of a WAL file as SQLite judges them (https://sqlite.org/fileformat2.html#walformat).
    struct WALScan {
        /// The header is valid.
        var headerValid = false
        /// Bytes after the header that can hold at least one frame.
        var hasFrames = false
        /// Commit frames in the valid prefix (what SQLite replays).
        var validCommits = 0
        /// A commit frame of the current generation (header's salts) after the valid prefix.
        var commitPastDamage = false
    }

    static func scanWAL(_ bytes: [UInt8]) -> WALScan {
        var scan = WALScan()
        guard bytes.count >= 32 else { return scan }
        func word(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        }
        let magic = word(0)
        let pageSize = Int(word(8))
        scan.hasFrames = bytes.count >= 32 + 24 + 512
        guard magic == 0x377F_0682 || magic == 0x377F_0683,
              pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return scan }
        let bigEndian = magic & 1 == 1
        /// SQLite's checksum: over 32-bit words (in the order the magic says), two at a time.
        func checksum(_ ranges: [Range<Int>], _ s: (UInt32, UInt32)) -> (UInt32, UInt32) {
            var (s0, s1) = s
            for range in ranges {
                var i = range.lowerBound
                while i + 8 <= range.upperBound {
                    let x0 = bigEndian ? word(i) : word(i).byteSwapped
                    let x1 = bigEndian ? word(i + 4) : word(i + 4).byteSwapped
                    s0 = s0 &+ x0 &+ s1
                    s1 = s1 &+ x1 &+ s0
                    i += 8
                }
            }
            return (s0, s1)
        }
        var sum = checksum([0..<24], (0, 0))
        guard sum == (word(24), word(28)) else { return scan }
        scan.headerValid = true
        let salts = (word(16), word(20))
        let frameSize = 24 + pageSize
        var offset = 32
        var chainIntact = true
        while offset + frameSize <= bytes.count {
            let page = word(offset)
            let commit = word(offset + 4) != 0
            let current = (word(offset + 8), word(offset + 12)) == salts
            if chainIntact {
                let next = checksum([offset..<(offset + 8), (offset + 24)..<(offset + frameSize)], sum)
                if current, page != 0, next == (word(offset + 16), word(offset + 20)) {
                    sum = next
                    if commit { scan.validCommits += 1 }
                } else {
                    chainIntact = false
                    if current && commit { scan.commitPastDamage = true }
                }
            } else if current && commit {
                scan.commitPastDamage = true
            }
            offset += frameSize
        }
        return scan
    }

    /// True when the WAL at `walPath` holds committed writes SQLite will not replay.
    static func walCommitsLost(walPath: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: walPath) else { return false }
        let scan = scanWAL([UInt8](data))
        return scan.headerValid ? scan.commitPastDamage : scan.hasFrames
    }

    static func walHasCommits(walPath: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: walPath) else { return false }
        return scanWAL([UInt8](data)).validCommits > 0
    }
}
