/// Strict UTF-8 validation (Unicode Table 3-7 "Well-Formed UTF-8 Byte Sequences").
///
/// Rejects overlong forms, UTF-8-encoded surrogates (U+D800...U+DFFF), code points above U+10FFFF
/// (lead bytes F5...FF), stray continuation bytes, and sequences truncated by `end`.
enum UTF8Validation {
    /// Validates the run of non-ASCII sequences starting at `start` (where `base[start] >= 0x80`), stopping at the
    /// first ASCII byte or at `end`.
    ///
    /// - Returns: the index just past the run (`>= start`) when valid, or `~index` (a negative number) where
    ///   `index` is the offset of the lead byte of the first invalid sequence.
    @inline(__always)
    static func validateRun(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        var i = start
        while i < end {
            let lead = base[i]
            if lead < 0x80 { return i }
            if lead < 0xC2 { return ~i }  // continuation byte or overlong 2-byte lead
            if lead < 0xE0 {
                guard i &+ 1 < end, isContinuation(base[i &+ 1]) else { return ~i }
                i &+= 2
                continue
            }
            if lead < 0xF0 {
                guard i &+ 2 < end else { return ~i }
                let second = base[i &+ 1]
                let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80  // E0: no overlongs
                let high: UInt8 = lead == 0xED ? 0x9F : 0xBF  // ED: no surrogates
                guard second >= low, second <= high, isContinuation(base[i &+ 2]) else { return ~i }
                i &+= 3
                continue
            }
            if lead < 0xF5 {
                guard i &+ 3 < end else { return ~i }
                let second = base[i &+ 1]
                let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80  // F0: no overlongs
                let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF  // F4: nothing above U+10FFFF
                guard second >= low, second <= high,
                    isContinuation(base[i &+ 2]), isContinuation(base[i &+ 3])
                else { return ~i }
                i &+= 4
                continue
            }
            return ~i  // F5...FF
        }
        return i
    }

    /// True for `10xxxxxx`.
    @inline(__always)
    static func isContinuation(_ byte: UInt8) -> Bool {
        byte & 0xC0 == 0x80
    }

    /// Writes the UTF-8 encoding of `scalar` (which must be a valid Unicode scalar value) at `out`;
    /// returns the number of bytes written (1...4).
    @inline(__always)
    static func encode(_ scalar: UInt32, into out: UnsafeMutablePointer<UInt8>) -> Int {
        if scalar < 0x80 {
            out[0] = UInt8(truncatingIfNeeded: scalar)
            return 1
        }
        if scalar < 0x800 {
            out[0] = UInt8(truncatingIfNeeded: 0xC0 | (scalar >> 6))
            out[1] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
            return 2
        }
        if scalar < 0x10000 {
            out[0] = UInt8(truncatingIfNeeded: 0xE0 | (scalar >> 12))
            out[1] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F))
            out[2] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
            return 3
        }
        out[0] = UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18))
        out[1] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F))
        out[2] = UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F))
        out[3] = UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F))
        return 4
    }
}
