/// Maps database keys to file names that are safe on every file system and never collide.
///
/// Keys come from app users and may hold `..`, `/`, `\`, control characters, or differ only by case
/// (`Alice` and `alice`, which macOS and Windows treat as one file). A key made only of lower-case ASCII
/// letters, digits, `-` and `_`, not too long, is its own file name. Any other key becomes a readable slug
/// plus `~` and a hash of the exact key; plain names never contain `~`, so the two kinds cannot collide.
public enum SafeFileName {
    /// The longest plain name kept as is; longer keys are shortened and hashed.
    static let maxPlainLength = 64

    /// The file name (without extension) for `key`.
    public static func forKey(_ key: String) -> String {
        let bytes = Array(key.utf8)
        let plain = !bytes.isEmpty && bytes.count <= maxPlainLength && bytes.allSatisfy { b in
            (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
        } && bytes != Array("..".utf8) && bytes.first != 0x2E
        if plain { return key }
        var slug = ""
        for scalar in key.unicodeScalars.prefix(40) {
            if scalar.isASCII, let c = Character(scalar).lowercased().first, c.isLetter || c.isNumber || c == "-" || c == "_" {
                slug.append(c)
            } else if slug.last != "-" {
                slug.append("-")
            }
        }
        return "\(slug)~\(hash(bytes))"
    }

    /// Twelve hex digits of a 64-bit FNV-1a hash: stable across runs and platforms.
    static func hash(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        let hex = String(h, radix: 16)
        return String((String(repeating: "0", count: max(0, 16 - hex.count)) + hex).prefix(12))
    }
}
