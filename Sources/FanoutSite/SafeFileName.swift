import Crypto

/// Maps database keys to file names that are safe on every file system and that no two keys share
/// (docs/site.md "File names").
///
/// Keys come from app users and may hold `..`, `/`, `\`, control characters, or differ only by case (`Alice` and
/// `alice`, which macOS and Windows treat as one file). A key's name is the key **escaped**: lower-case ASCII
/// letters, digits, `-` and `_` stay as they are, and every other byte of its UTF-8 (upper-case letters too) is
/// written `~` and two lower-case hex digits (`Alice` → `~41lice`, `a.b` → `a~2eb`); the empty key is `~`. The
/// escape can be read back (``key(ofName:)``), so two keys cannot share a name, even on a file system that ignores
/// case, and `serve` finds the key a name stands for without a table of names. A name held a 48-bit hash before,
/// which could be collided on purpose: two users then shared a page.
///
/// A key whose escaped name would be longer than ``maxEscapedLength`` bytes (file names end at 255; Firebase keys
/// at 768) is **hashed** instead: a readable slug, `~~` and the first 128 bits of the SHA-256 of its UTF-8. An
/// escaped name never holds `~~`, so the two kinds cannot meet; two hashed names could only meet by a SHA-256
/// collision, which `build` and `serve` still check for (``FileNameIndex``), failing with both keys named.
package enum SafeFileName {
    /// The longest escaped name; keys whose escape is longer are hashed.
    static let maxEscapedLength = 120
    /// How many scalars of a hashed key its slug shows.
    static let slugScalars = 40
    /// How many bytes of the key's SHA-256 a hashed name carries (in twice as many hex digits).
    static let hashBytes = 16

    /// The file name (without extension) for `key`.
    package static func forKey(_ key: String) -> String {
        var key = key
        // Over the bytes, into one string made in place: every page's path and every link on it goes through here,
        // and a post's key (a push ID, with capitals) is never plain; made of pieces, a name was a tenth of a
        // rebuild's deciding which pages changed (docs/performance.md "Rebuilds").
        return key.withUTF8 { buffer -> String? in
            let utf8 = UnsafeRawBufferPointer(buffer)
            let length = escapedLength(utf8: utf8)
            guard length <= maxEscapedLength else { return hashed(utf8, digest: sha256) }
            // A plain key is its own name: the string itself, nothing made.
            return length == utf8.count && length > 0 ? nil : escaped(utf8, length: length)
        } ?? key
    }

    /// How long `utf8`'s escaped name is: a byte for each plain byte, three for each other; `~` for the empty key.
    static func escapedLength(utf8: UnsafeRawBufferPointer) -> Int {
        var length = 0
        for b in utf8 { length += isPlain(b) ? 1 : 3 }
        return max(length, 1)
    }

    /// Whether `utf8` gets a hashed name (its escape is too long). A key of at most a third of the longest escape
    /// is escaped whatever its bytes, without looking at them: every build asks this of every user and post.
    static func isHashed(utf8: UnsafeRawBufferPointer) -> Bool {
        utf8.count * 3 > maxEscapedLength && escapedLength(utf8: utf8) > maxEscapedLength
    }

    /// A byte kept as it is: a lower-case ASCII letter, a digit, `-` or `_`.
    @inline(__always)
    static func isPlain(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
    }

    /// `utf8` escaped, `length` bytes long (``escapedLength(utf8:)``).
    private static func escaped(_ utf8: UnsafeRawBufferPointer, length: Int) -> String {
        String(unsafeUninitializedCapacity: length) { name in
            var count = 0
            for b in utf8 {
                if isPlain(b) {
                    name[count] = b
                    count += 1
                } else {
                    name[count] = tilde
                    name[count + 1] = hexDigit(b >> 4)
                    name[count + 2] = hexDigit(b & 0xF)
                    count += 3
                }
            }
            if count == 0 {
                name[0] = tilde
                count = 1
            }
            return count
        }
    }

    /// The hashed name of `utf8`: the slug (its first ``slugScalars`` scalars, ASCII letters lower-cased, letters,
    /// digits, `-` and `_` kept, every run of other scalars one `-`), `~~` and the first ``hashBytes`` bytes of
    /// `digest(utf8)` in hex. `digest` is SHA-256 but in tests, which give one that collides.
    static func hashed(_ utf8: UnsafeRawBufferPointer, digest: (UnsafeRawBufferPointer) -> [UInt8]) -> String {
        let hash = digest(utf8)
        precondition(hash.count >= hashBytes, "a digest of \(hash.count) bytes")
        return String(unsafeUninitializedCapacity: slugScalars + 2 + 2 * hashBytes) { name in
            // Swift strings are valid UTF-8, so a byte that is not a continuation byte (10xxxxxx) starts a scalar.
            var count = 0
            var scalars = 0
            for b in utf8 where b & 0xC0 != 0x80 {
                if scalars == slugScalars { break }
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
            name[count] = tilde
            name[count + 1] = tilde
            count += 2
            for b in hash.prefix(hashBytes) {
                name[count] = hexDigit(b >> 4)
                name[count + 1] = hexDigit(b & 0xF)
                count += 2
            }
            return count
        }
    }

    /// The SHA-256 of `bytes` (swift-crypto: BoringSSL's on Linux, CryptoKit's on macOS).
    static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    /// Whether `name` is a hashed name (it holds `~~`), which only a table of the keys that have one can read.
    static func isHashedName(_ name: Substring) -> Bool {
        var previous: UInt8 = 0
        for b in name.utf8 {
            if b == tilde && previous == tilde { return true }
            previous = b
        }
        return false
    }

    /// The key whose escaped name is exactly `name`, or nil when `name` is no key's escaped name (a hashed name, a
    /// `~` not followed by two lower-case hex digits, an escape of a byte that is kept as it is, bytes that are not
    /// UTF-8).
    package static func key(ofName name: Substring) -> String? {
        if name == "~" { return "" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        var iterator = name.utf8.makeIterator()
        while let b = iterator.next() {
            if isPlain(b) {
                bytes.append(b)
                continue
            }
            guard b == tilde, let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
            else { return nil }
            let byte = high << 4 | low
            guard !isPlain(byte) else { return nil }
            bytes.append(byte)
        }
        // Past the longest escaped name, the key's name is hashed, and this name is no key's.
        guard !bytes.isEmpty, name.utf8.count <= maxEscapedLength else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The value of a lower-case hex digit.
    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    /// The lower-case hex digit of `value` (0…15), without a table's bounds check: push IDs escape half their bytes.
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x57 + value }

    private static let tilde = UInt8(ascii: "~")
}
