import CScan

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
        let scanner = input
        guard scanner.base[start] == Byte.quote else { throw scanner.unexpected("expected a string", at: start) }
        let scan = try scanner.scanString(at: start)
        let bytes = stringBytes(from: start, scan: scan)
        completeValue(at: scan.end)
        return bytes
    }

    /// The unescaped bytes of an already validated string literal starting at `start`: a slice of the input
    /// without escapes, else decoded into the scratch buffer.
    @inline(__always)
    mutating func stringBytes(from start: Int, scan: StringScan) -> UnsafeRawBufferPointer {
        let contentStart = start &+ 1
        let contentEnd = scan.end &- 1
        if !scan.hasEscapes {
            return UnsafeRawBufferPointer(start: input.base + contentStart, count: contentEnd &- contentStart)
        }
        let out = scratch.reserve(contentEnd &- contentStart)
        let length = input.unescape(from: contentStart, to: contentEnd, into: out)
        return UnsafeRawBufferPointer(start: out, count: length)
    }
}

extension ByteScanner {
    /// Validates the string literal whose opening quote is at `start` (escapes, UTF-8, no raw control characters)
    /// without decoding it.
    @inline(__always)
    func scanString(at start: Int) throws(JSONSyntaxError) -> StringScan {
        let p = base
        let n = count
        let stops = table
        var i = start &+ 1
        var hasEscapes = false
        while true {
            #if arch(x86_64)
                // Sixteen bytes at a time (SSE2, `CScan`) while none of them can end the fast path.
                i = fanout_string_stop(p, i, n)
            #else
                // Eight bytes at a time while none of them can end the fast path.
                while i &+ 8 <= n {
                    let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                    let stopMask = SWAR.stringStopMask(word)
                    if stopMask != 0 {
                        #if _endian(little)
                            i &+= stopMask.trailingZeroBitCount &>> 3  // exactly the first stop byte
                        #endif
                        break
                    }
                    i &+= 8
                }
            #endif
            // Then byte by byte to the exact stop byte (at most the last bytes of the input, or none).
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
        // swift-format-ignore: NoBlockComments
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
            throw invalidEscape(at: index)
        }
    }

    /// "invalid escape '\x'" for the backslash at `index`.
    @inline(never)
    func invalidEscape(at index: Int) -> JSONSyntaxError {
        let escaped = base[index &+ 1]
        if escaped >= 0x21 && escaped <= 0x7E {
            return error("invalid escape '\\" + String(UnicodeScalar(escaped)) + "'", at: index)
        }
        return error("invalid escape '\\' followed by \(JSONSyntaxError.describe(byte: escaped))", at: index)
    }

    /// Decodes the validated string content `[from, to)` into `out` (which has room for `to - from` bytes:
    /// decoding never grows the text); returns the decoded length.
    ///
    /// `\uXXXX` escapes: a high surrogate followed by a low-surrogate escape decodes to their scalar; any other
    /// surrogate escape decodes to U+FFFD.
    @inline(never)
    func unescape(from: Int, to: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let p = base
        let hex = table + 256
        var o = 0
        var i = from
        while i < to {
            // Copy the run up to the next backslash.
            var runEnd = i
            while runEnd < to && p[runEnd] != Byte.backslash { runEnd &+= 1 }
            if runEnd > i {
                UnsafeMutableRawPointer(out + o).copyMemory(from: p + i, byteCount: runEnd &- i)
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
        return o
    }

    /// The value of four validated hex digits.
    @inline(__always)
    static func hex4(_ digits: UnsafePointer<UInt8>, _ hex: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(hex[Int(digits[0])]) << 12 | UInt32(hex[Int(digits[1])]) << 8
            | UInt32(hex[Int(digits[2])]) << 4 | UInt32(hex[Int(digits[3])])
    }
}
