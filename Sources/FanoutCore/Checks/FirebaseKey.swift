/// The Realtime Database's rules for keys and paths, as `key-invalid` applies them; public so that a reader
/// streaming an export into tables decides them per key as it reads (README "Exports bigger than one machine").
public enum FirebaseKey {
    /// Keys longer than this many UTF-8 bytes are rejected.
    static let maximumBytes = 768
    /// Paths must be shallower than this many keys.
    static let maximumDepth = 32

    /// Bytes a key may not hold: `. $ # [ ] /` and the ASCII control characters.
    private static let forbidden: [Bool] = (0..<256).map { byte in
        byte < 0x20 || byte == 0x7F || ".$#[]/".utf8.contains(UInt8(byte))
    }

    /// Why `bytes` is not a valid key, or nil when it is one.
    public static func problem(_ bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.isEmpty { return "is empty" }
        if bytes.count > maximumBytes { return "is \(bytes.count) bytes long (at most \(maximumBytes))" }
        // Almost every key is valid: one table lookup per byte decides, and only a bad key is described.
        guard bytes.contains(where: { forbidden[Int($0)] }) else { return nil }
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
