/// The result of scanning one string literal.
struct StringScan {
    /// The index just past the closing quote.
    var end: Int
    /// True when the literal contains at least one backslash escape.
    var hasEscapes: Bool
}

extension JSONReader {
    /// Reads the next value as a `String` (unescaped). Throws "expected a string" for another kind of value.
    public mutating func readString() throws(JSONSyntaxError) -> String {
        let bytes = try readStringBytes()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads the next value as the unescaped UTF-8 bytes of a string. Same lifetime rule as `nextKey()`:
    /// zero copy into the input when the string has no escapes, else an internal scratch buffer; valid only until
    /// the next call on the reader.
    public mutating func readStringBytes() throws(JSONSyntaxError) -> UnsafeRawBufferPointer {
        let start = try valueStart()
        guard base[start] == Byte.quote else { throw unexpected("expected a string", at: start) }
        let scan = try scanString(at: start)
        let bytes = stringBytes(from: start, scan: scan)
        completeValue(at: scan.end)
        return bytes
    }

    /// Validates the string literal whose opening quote is at `start` (escapes, UTF-8, no control characters)
    /// without decoding it.
    @inline(__always)
    func scanString(at start: Int) throws(JSONSyntaxError) -> StringScan {
        let p = base
        let n = count
        let stops = table
        var i = start &+ 1
        var hasEscapes = false
        while true {
            // Eight bytes at a time while none of them can end the fast path.
            while i &+ 8 <= n {
                let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                if SWAR.hasStringStop(word) { break }
                i &+= 8
            }
            // Then byte by byte to the exact stop byte.
            while i < n && stops[Int(p[i])] == 0 { i &+= 1 }
            guard i < n else { throw error("unterminated string", at: start) }
            let byte = p[i]
            if byte == Byte.quote {
                return StringScan(end: i &+ 1, hasEscapes: hasEscapes)
            }
            if byte == Byte.backslash {
                hasEscapes = true
                i = try scanEscape(at: i, stringStart: start)
                continue
            }
            if byte < 0x20 {
                throw error("control character in string", at: i)
            }
            // Non-ASCII: validate the whole run of multi-byte sequences.
            let next = UTF8Validation.validateRun(p, from: i, end: n)
            guard next >= 0 else { throw error("invalid UTF-8 in string", at: ~next) }
            i = next
        }
    }

    /// Validates the escape whose backslash is at `index`; returns the index just past it.
    @inline(__always)
    func scanEscape(at index: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
        let p = base
        let n = count
        guard index &+ 1 < n else { throw error("unterminated string", at: stringStart) }
        switch p[index &+ 1] {
        case Byte.quote, Byte.backslash, Byte.slash, 0x62 /* b */, 0x66 /* f */, 0x6E /* n */, 0x72 /* r */,
            0x74 /* t */:
            return index &+ 2
        case Byte.lowerU:
            let hex = table + 256
            var k = index &+ 2
            while k < index &+ 6 {
                guard k < n else { throw error("unterminated string", at: stringStart) }
                guard hex[Int(p[k])] != 0xFF else {
                    throw error("invalid \\u escape (expected 4 hex digits)", at: index)
                }
                k &+= 1
            }
            return k
        default:
            let escaped = p[index &+ 1]
            if escaped >= 0x21 && escaped <= 0x7E {
                throw error("invalid escape '\\" + String(UnicodeScalar(escaped)) + "'", at: index)
            }
            throw error("invalid escape '\\' followed by \(JSONSyntaxError.describe(byte: escaped))", at: index)
        }
    }

    /// The unescaped bytes of an already validated string literal starting at `start`.
    @inline(__always)
    func stringBytes(from start: Int, scan: StringScan) -> UnsafeRawBufferPointer {
        let contentStart = start &+ 1
        let contentEnd = scan.end &- 1
        if !scan.hasEscapes {
            return UnsafeRawBufferPointer(start: base + contentStart, count: contentEnd &- contentStart)
        }
        return unescape(from: contentStart, to: contentEnd)
    }

    /// Decodes the validated string content `[from, to)` into the scratch buffer. Decoding never grows the text,
    /// so the content length is enough room.
    @inline(never)
    func unescape(from: Int, to: Int) -> UnsafeRawBufferPointer {
        let p = base
        let hex = table + 256
        let out = scratch.reserve(to &- from)
        var o = 0
        var i = from
        while i < to {
            // Copy the run up to the next backslash.
            var runEnd = i
            while runEnd < to && p[runEnd] != Byte.backslash { runEnd &+= 1 }
            if runEnd > i {
                (out + o).update(from: p + i, count: runEnd &- i)
                o &+= runEnd &- i
                i = runEnd
            }
            guard i < to else { break }
            let escaped = p[i &+ 1]
            switch escaped {
            case 0x62: out[o] = 0x08; o &+= 1; i &+= 2  // \b
            case 0x66: out[o] = 0x0C; o &+= 1; i &+= 2  // \f
            case 0x6E: out[o] = 0x0A; o &+= 1; i &+= 2  // \n
            case 0x72: out[o] = 0x0D; o &+= 1; i &+= 2  // \r
            case 0x74: out[o] = 0x09; o &+= 1; i &+= 2  // \t
            case Byte.lowerU:
                let unit = Self.hex4(p + (i &+ 2), hex)
                var scalar = unit
                var length = 6
                if unit >= 0xD800 && unit <= 0xDBFF {
                    // A high surrogate: combine with a following low-surrogate escape, else U+FFFD.
                    scalar = 0xFFFD
                    if i &+ 12 <= to && p[i &+ 6] == Byte.backslash && p[i &+ 7] == Byte.lowerU {
                        let low = Self.hex4(p + (i &+ 8), hex)
                        if low >= 0xDC00 && low <= 0xDFFF {
                            scalar = 0x10000 &+ ((unit &- 0xD800) << 10) &+ (low &- 0xDC00)
                            length = 12
                        }
                    }
                } else if unit >= 0xDC00 && unit <= 0xDFFF {
                    scalar = 0xFFFD  // a lone low surrogate
                }
                o &+= UTF8Validation.encode(scalar, into: out + o)
                i &+= length
            default:  // \" \\ \/
                out[o] = escaped
                o &+= 1
                i &+= 2
            }
        }
        return UnsafeRawBufferPointer(start: out, count: o)
    }

    /// The value of four validated hex digits.
    @inline(__always)
    static func hex4(_ digits: UnsafePointer<UInt8>, _ hex: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(hex[Int(digits[0])]) << 12 | UInt32(hex[Int(digits[1])]) << 8
            | UInt32(hex[Int(digits[2])]) << 4 | UInt32(hex[Int(digits[3])])
    }
}
