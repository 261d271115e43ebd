/// Maps database keys to file names that are safe on every file system and never collide.
///
/// Keys come from app users and may hold `..`, `/`, `\`, control characters, or differ only by case
/// (`Alice` and `alice`, which macOS and Windows treat as one file). A key made only of lower-case ASCII
/// letters, digits, `-` and `_`, not too long, is its own file name. Any other key becomes a readable slug
/// plus `~` and a hash of the exact key; plain names never contain `~`, so the two kinds cannot collide.
package enum SafeFileName {
    /// The longest plain name kept as is; longer keys are shortened and hashed.
    static let maxPlainLength = 64

    /// The file name (without extension) for `key`.
    package static func forKey(_ key: String) -> String {
        // Byte by byte: every link on every page goes through here. Swift strings are valid UTF-8, so a byte
        // that is not a continuation byte (10xxxxxx) starts a scalar.
        let utf8 = key.utf8
        if isPlain(key) { return key }
        // The slug: the first 40 scalars, ASCII letters lower-cased, ASCII letters, digits, `-` and `_` kept,
        // every run of other scalars folded into one `-`.
        var slug: [UInt8] = []
        slug.reserveCapacity(48)
        var scalars = 0
        for b in utf8 where b & 0xC0 != 0x80 {
            if scalars == 40 { break }
            scalars += 1
            switch b {
            case 0x41...0x5A: slug.append(b | 0x20)
            case 0x61...0x7A, 0x30...0x39, 0x2D, 0x5F: slug.append(b)
            default: if slug.last != 0x2D { slug.append(0x2D) }
            }
        }
        return String(decoding: slug, as: UTF8.self) + "~" + hash(utf8)
    }

    /// Whether `key` is its own file name: lower-case ASCII letters, digits, `-` and `_`, not too long.
    static func isPlain(_ key: String) -> Bool { isPlain(utf8: key.utf8) }

    /// ``isPlain(_:)`` of a key's UTF-8 bytes.
    static func isPlain(utf8: some Collection<UInt8>) -> Bool {
        !utf8.isEmpty && utf8.count <= maxPlainLength
            && utf8.allSatisfy { b in
                (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
            }
    }

    /// Twelve hex digits of a 64-bit FNV-1a hash: stable across runs and platforms.
    static func hash(_ bytes: some Sequence<UInt8>) -> String {
        let h = hashValue(bytes)
        let digits = Array("0123456789abcdef".utf8)
        return String(
            decoding: (0..<12).map { digits[Int(truncatingIfNeeded: h >> (44 - 4 * UInt64($0))) & 0xF] }, as: UTF8.self)
    }

    /// The number ``hash(_:)`` writes: the top 48 bits of the bytes' 64-bit FNV-1a hash.
    static func hashValue(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h >> 16
    }

    /// The number a name made by ``forKey(_:)`` ends with after `~`, if it has one.
    static func hashValue(ofName name: Substring) -> UInt64? {
        guard let tilde = name.lastIndex(of: "~") else { return nil }
        let digits = name[name.index(after: tilde)...]
        guard digits.utf8.count == 12 else { return nil }
        return UInt64(digits, radix: 16)
    }
}
