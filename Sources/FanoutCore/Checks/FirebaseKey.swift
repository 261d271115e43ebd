/// The Realtime Database's rules for keys and paths, as `key-invalid` applies them; package access so that a reader
/// streaming an export into tables decides them per key as it reads (docs/tables.md).
package enum FirebaseKey {
    /// Keys longer than this many UTF-8 bytes are rejected.
    package static let maximumBytes = 768
    /// Paths must be shallower than this many keys.
    static let maximumDepth = 32

    /// Whether a key may not hold `byte`: `. $ # [ ] /` and the ASCII control characters. Comparisons rather
    /// than a table: a global table costs a lazy initialization check per call.
    @inlinable
    package static func isForbidden(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0x2E || byte == 0x24 || byte == 0x23 || byte == 0x5B || byte == 0x5D
            || byte == 0x2F
    }

    /// Why `bytes` is not a valid key, or nil when it is one.
    package static func problem(_ bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.isEmpty { return "is empty" }
        if bytes.count > maximumBytes { return "is \(bytes.count) bytes long (at most \(maximumBytes))" }
        // Almost every key is valid: a few comparisons per byte decide, and only a bad key is described.
        guard bytes.contains(where: isForbidden) else { return nil }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "$"), UInt8(ascii: "#"), UInt8(ascii: "["), UInt8(ascii: "]"),
                UInt8(ascii: "/"):
                return "contains \"\(Character(Unicode.Scalar(byte)))\""
            case 0x00...0x1F, 0x7F:
                let hex = String(byte, radix: 16, uppercase: true)
                return "contains the control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex)"
            default:
                continue
            }
        }
        return nil
    }
}
