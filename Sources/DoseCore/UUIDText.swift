import Foundation

/// A UUID as the night log writes its ids: 36 lowercase characters, 8-4-4-4-12 hex digits.
///
/// Foundation's `uuidString` then `lowercased()` cost ~7,000 instructions an id; every
/// transition of boxd's engine makes three, a press's acknowledgement among them: 22,700 of
/// its ~100,000 instructions before the flash was written (#34).
extension UUID {
    public var lowercaseText: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var i = 0
                for (n, byte) in bytes.enumerated() {
                    if n == 4 || n == 6 || n == 8 || n == 10 {
                        out[i] = UInt8(ascii: "-")
                        i += 1
                    }
                    out[i] = Self.hexDigit(byte >> 4)
                    out[i + 1] = Self.hexDigit(byte & 0x0F)
                    i += 2
                }
                return i
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
