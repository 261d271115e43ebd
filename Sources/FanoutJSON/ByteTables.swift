/// Lookup tables shared by every reader, allocated once and never freed.
///
/// Layout (512 bytes):
/// - `[0..<256]`: string-scan stop table, nonzero for the bytes that end the fast ASCII loop inside a string:
///   `"`, `\`, control characters (< 0x20) and non-ASCII bytes (>= 0x80).
/// - `[256..<512]`: hexadecimal digit values, `0...15`, or `0xFF` for a byte that is not a hex digit.
nonisolated(unsafe) let byteTables: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
    for byte in 0..<256 {
        let stops = byte < 0x20 || byte == 0x22 || byte == 0x5C || byte >= 0x80
        table[byte] = stops ? 1 : 0
        let hex: UInt8
        switch byte {
        case 0x30...0x39: hex = UInt8(byte - 0x30)
        case 0x41...0x46: hex = UInt8(byte - 0x41 + 10)
        case 0x61...0x66: hex = UInt8(byte - 0x61 + 10)
        default: hex = 0xFF
        }
        table[256 + byte] = hex
    }
    return UnsafePointer(table)
}()

/// Eight zero bytes: the buffer used in place of an empty input's (possibly nil) base address.
nonisolated(unsafe) let emptyInput: UnsafePointer<UInt8> = {
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 8)
    bytes.initialize(repeating: 0, count: 8)
    return UnsafePointer(bytes)
}()

/// Byte constants used by the reader and the writer.
enum Byte {
    static let quote: UInt8 = 0x22  // "
    static let backslash: UInt8 = 0x5C  // \
    static let slash: UInt8 = 0x2F  // /
    static let comma: UInt8 = 0x2C  // ,
    static let colon: UInt8 = 0x3A  // :
    static let openBrace: UInt8 = 0x7B  // {
    static let closeBrace: UInt8 = 0x7D  // }
    static let openBracket: UInt8 = 0x5B  // [
    static let closeBracket: UInt8 = 0x5D  // ]
    static let minus: UInt8 = 0x2D  // -
    static let plus: UInt8 = 0x2B  // +
    static let dot: UInt8 = 0x2E  // .
    static let zero: UInt8 = 0x30  // 0
    static let lowerE: UInt8 = 0x65  // e
    static let lowerT: UInt8 = 0x74  // t
    static let lowerF: UInt8 = 0x66  // f
    static let lowerN: UInt8 = 0x6E  // n
    static let lowerU: UInt8 = 0x75  // u
    static let space: UInt8 = 0x20
    static let newline: UInt8 = 0x0A

    /// Bit `b` is set for each JSON whitespace byte `b` (space, tab, line feed, carriage return).
    static let whitespaceMask: UInt64 = (1 << 0x20) | (1 << 0x09) | (1 << 0x0A) | (1 << 0x0D)

    /// True for the four JSON whitespace bytes.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte <= 0x20 && (whitespaceMask >> UInt64(byte)) & 1 != 0
    }

    /// True for `0`...`9`.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }
}

/// SWAR helpers: test eight bytes at once.
enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// A mask with the high bit set in the bytes of `word` that are `"`, `\`, below 0x20 or at/above 0x80 (the
    /// string-scan stop bytes), zero when there is none.
    ///
    /// Bits above the first stop byte may be spurious (borrows), but the lowest set bit always marks the first
    /// stop byte exactly, so on a little-endian machine `trailingZeroBitCount / 8` is its index.
    @inline(__always)
    static func stringStopMask(_ word: UInt64) -> UInt64 {
        let nonASCII = word & highBits
        let control = (word &- ones &* 0x20) & ~word & highBits
        let quoteBytes = word ^ (ones &* 0x22)
        let quotes = (quoteBytes &- ones) & ~quoteBytes & highBits
        let backslashBytes = word ^ (ones &* 0x5C)
        let backslashes = (backslashBytes &- ones) & ~backslashBytes & highBits
        return nonASCII | control | quotes | backslashes
    }

    /// Eight spaces.
    static let spaces: UInt64 = ones &* 0x20
}
