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
        var key = key
        // Over the bytes, into one string made in place: every page's path and every link on it goes through here,
        // and a post's key (a push ID, with capitals) is never plain; made of pieces, a name was a tenth of a
        // rebuild's deciding which pages changed (docs/performance.md "Rebuilds after a new post").
        return key.withUTF8 { utf8 -> String? in
            if isPlain(utf8: utf8) { return nil }
            return String(unsafeUninitializedCapacity: 40 + 1 + 12) { name in
                // The slug: the first 40 scalars, ASCII letters lower-cased, ASCII letters, digits, `-` and `_`
                // kept, every run of other scalars folded into one `-`. Swift strings are valid UTF-8, so a byte
                // that is not a continuation byte (10xxxxxx) starts a scalar.
                var count = 0
                var scalars = 0
                for b in utf8 where b & 0xC0 != 0x80 {
                    if scalars == 40 { break }
                    scalars += 1
                    switch b {
                    case 0x41...0x5A: name[count] = b | 0x20
                    case 0x61...0x7A, 0x30...0x39, 0x2D, 0x5F: name[count] = b
                    default:
                        if count > 0 && name[count - 1] == 0x2D { continue }
                        name[count] = 0x2D
                    }
                    count += 1
                }
                name[count] = UInt8(ascii: "~")
                count += 1
                let h = hashValue(utf8)
                for i in 0..<12 {
                    name[count + i] = hexDigits[Int(truncatingIfNeeded: h >> (44 - 4 * UInt64(i))) & 0xF]
                }
                return count + 12
            }
        } ?? key
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Whether `key` is its own file name: lower-case ASCII letters, digits, `-` and `_`, not too long.
    static func isPlain(_ key: String) -> Bool { isPlain(utf8: key.utf8) }

    /// ``isPlain(_:)`` of a key's UTF-8 bytes.
    static func isPlain(utf8: some Collection<UInt8>) -> Bool {
        !utf8.isEmpty && utf8.count <= maxPlainLength
            && utf8.allSatisfy { b in
                (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
            }
    }

    /// The number a name made by ``forKey(_:)`` ends with, in twelve hex digits: the top 48 bits of the key's
    /// 64-bit FNV-1a hash, stable across runs and platforms.
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
