import CScan
import FanoutJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the NDJSON rows the table sink writes (``RowText``: one object a line, the table's columns in order,
/// strings escaped as `JSONWriter` escapes them) into the leaf columns of a row group, for the Parquet parts
/// (docs/tables.md "Parquet"). It reads only that shape: a row whose columns are not the table's, in order, or a
/// value that does not fit its column's type, is an error (a bug of the writer, never the export's data).
struct ParquetRowDecoder {
    let schema: ParquetSchema

    struct DecodeError: Error, CustomStringConvertible {
        let description: String
    }

    /// Decodes the whole rows of `bytes` into `chunks` (one per leaf of the schema), stopping after the row that
    /// makes the chunks hold `limit` bytes or more; returns the rows read and the bytes of `bytes` they took.
    func decode(
        _ bytes: UnsafeRawBufferPointer, into chunks: UnsafeMutableBufferPointer<ParquetColumnChunk>,
        limit: Int = .max
    ) throws(DecodeError) -> (rows: Int, read: Int) {
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (0, 0) }
        var cursor = Cursor(p: start, end: start + bytes.count)
        var rows = 0
        var held = chunks.reduce(0) { $0 + $1.bufferedBytes }
        while cursor.p < cursor.end, held < limit {
            let before = cursor.p
            try cursor.expect(UInt8(ascii: "{"))
            for (index, (name, field)) in schema.fields.enumerated() {
                if index > 0 { try cursor.expect(UInt8(ascii: ",")) }
                try cursor.key(name)
                switch field {
                case .scalar(let leaf, let required):
                    if cursor.null() {
                        guard !required else { throw cursor.error("null in the required column \(string(name))") }
                        chunks[leaf].definitions.append(0)
                    } else {
                        try cursor.value(into: &chunks[leaf])
                        if !required { chunks[leaf].definitions.append(1) }
                    }
                    chunks[leaf].count += 1
                case .structList(let members, let leaves):
                    try structList(&cursor, members, leaves, chunks)
                }
            }
            try cursor.expect(UInt8(ascii: "}"))
            try cursor.expect(UInt8(ascii: "\n"))
            rows += 1
            // The row's own bytes bound what it added to the columns (a string's 4-byte length replaces at least
            // its quotes, a number's 8 bytes… not always): counted again only when that bound could reach `limit`.
            held += cursor.p - before + 8 * chunks.count
            if held >= limit { held = chunks.reduce(0) { $0 + $1.bufferedBytes } }
        }
        return (rows, cursor.p - start)
    }

    /// An array of objects, or null: definition 0 (null), 1 (empty) or 2 (an element), repetition 0 for the
    /// row's first entry and 1 for each next element.
    private func structList(
        _ cursor: inout Cursor, _ members: [[UInt8]], _ leaves: [Int],
        _ chunks: UnsafeMutableBufferPointer<ParquetColumnChunk>
    ) throws(DecodeError) {
        func level(_ definition: UInt8, _ repetition: UInt8) {
            for leaf in leaves {
                chunks[leaf].definitions.append(definition)
                chunks[leaf].repetitions.append(repetition)
                chunks[leaf].count += 1
            }
        }
        if cursor.null() { return level(0, 0) }
        try cursor.expect(UInt8(ascii: "["))
        if cursor.skip(UInt8(ascii: "]")) { return level(1, 0) }
        var element = 0
        repeat {
            try cursor.expect(UInt8(ascii: "{"))
            for (index, (member, leaf)) in zip(members, leaves).enumerated() {
                if index > 0 { try cursor.expect(UInt8(ascii: ",")) }
                try cursor.key(member)
                guard !cursor.null() else { throw cursor.error("null in the required field \(string(member))") }
                try cursor.value(into: &chunks[leaf])
            }
            try cursor.expect(UInt8(ascii: "}"))
            level(2, element == 0 ? 0 : 1)
            element += 1
        } while cursor.skip(UInt8(ascii: ","))
        try cursor.expect(UInt8(ascii: "]"))
    }

    private func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// A position in NDJSON rows.
private struct Cursor {
    var p: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>

    func error(_ what: String) -> ParquetRowDecoder.DecodeError {
        let shown = String(decoding: UnsafeBufferPointer(start: p, count: min(40, end - p)), as: UTF8.self)
        return ParquetRowDecoder.DecodeError(
            description: "table row not as expected: \(what), at \(shown.debugDescription)")
    }

    mutating func expect(_ byte: UInt8) throws(ParquetRowDecoder.DecodeError) {
        guard p < end, p.pointee == byte else {
            throw error("expected \(String(decoding: [byte], as: UTF8.self).debugDescription)")
        }
        p += 1
    }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard p < end, p.pointee == byte else { return false }
        p += 1
        return true
    }

    /// `"name":`, the column `name`'s.
    mutating func key(_ name: [UInt8]) throws(ParquetRowDecoder.DecodeError) {
        let matches = name.withUnsafeBufferPointer { name in
            end - p >= name.count + 3 && p[0] == 0x22 && p[name.count + 1] == 0x22 && p[name.count + 2] == 0x3A
                && memcmp(p + 1, name.baseAddress!, name.count) == 0
        }
        guard matches else { throw error("expected the column \(String(decoding: name, as: UTF8.self))") }
        p += name.count + 3
    }

    /// Skips `null` when it is next.
    mutating func null() -> Bool {
        guard end - p >= 4, p[0] == 0x6E, p[1] == 0x75, p[2] == 0x6C, p[3] == 0x6C else { return false }
        p += 4
        return true
    }

    /// A value of the chunk's type, PLAIN-encoded into its values.
    mutating func value(into chunk: inout ParquetColumnChunk) throws(ParquetRowDecoder.DecodeError) {
        switch chunk.leaf.physical {
        case .byteArray: try string(into: &chunk.values)
        case .int64: chunk.values.appendLittleEndian(try integer())
        case .double: chunk.values.appendLittleEndian(try double().bitPattern)
        case .boolean:
            if end - p >= 4, memcmp(p, "true", 4) == 0 {
                p += 4
                chunk.appendBool(true)
            } else if end - p >= 5, memcmp(p, "false", 5) == 0 {
                p += 5
                chunk.appendBool(false)
            } else {
                throw error("expected a boolean")
            }
        }
    }

    mutating func integer() throws(ParquetRowDecoder.DecodeError) -> Int64 {
        let negative = skip(UInt8(ascii: "-"))
        var value: Int64 = 0, digits = 0
        while p < end, p.pointee &- 0x30 < 10 {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.subtractingReportingOverflow(Int64(p.pointee &- 0x30))
            guard !o1, !o2 else { throw error("an integer out of the 64-bit range") }
            value = sum
            p += 1
            digits += 1
        }
        guard digits > 0 else { throw error("expected an integer") }
        if negative { return value }
        guard value != .min else { throw error("an integer out of the 64-bit range") }
        return -value
    }

    mutating func double() throws(ParquetRowDecoder.DecodeError) -> Double {
        // The number ends at the `,` or `}` after it, so strtod stops inside the rows.
        var after: UnsafeMutablePointer<CChar>?
        let value = p.withMemoryRebound(to: CChar.self, capacity: 1) { strtod($0, &after) }
        guard let after else { throw error("expected a number") }
        let read = UnsafeRawPointer(after) - UnsafeRawPointer(p)
        guard read > 0, read <= end - p else { throw error("expected a number") }
        p += read
        return value
    }

    /// A JSON string, unescaped, as a `BYTE_ARRAY`: its length (4 bytes, little-endian), then its bytes.
    mutating func string(into out: inout ByteBuffer) throws(ParquetRowDecoder.DecodeError) {
        try expect(0x22)
        let lengthAt = out.count
        out.appendLittleEndian(UInt32(0))
        while true {
            var q = p
            // 16 bytes at a time to the next quote or backslash, as the reader scans strings (CScan): most of a
            // tables run's strings are paths of 40 to 80 bytes. The scan also stops at a control or non-ASCII byte,
            // which is stepped over here, and leaves the last 15 bytes to the byte-by-byte loop.
            while q < end {
                q += fanout_string_stop(q, 0, end - q)
                guard q < end, q.pointee != 0x22, q.pointee != 0x5C else { break }
                q += 1
            }
            guard q < end else { throw error("an unterminated string") }
            if q > p { out.append(p, q - p) }
            p = q + 1
            if q.pointee == 0x22 { break }
            try escape(into: &out)
        }
        out.storeLength(UInt32(out.count - lengthAt - 4), at: lengthAt)
    }

    /// The escape after a backslash.
    private mutating func escape(into out: inout ByteBuffer) throws(ParquetRowDecoder.DecodeError) {
        guard p < end else { throw error("an unterminated string") }
        let byte = p.pointee
        p += 1
        switch byte {
        case 0x22, 0x5C, 0x2F: out.append(byte)
        case 0x62: out.append(0x08)  // b
        case 0x66: out.append(0x0C)  // f
        case 0x6E: out.append(0x0A)  // n
        case 0x72: out.append(0x0D)  // r
        case 0x74: out.append(0x09)  // t
        case 0x75:  // u
            var scalar = try hex4()
            if scalar >= 0xD800, scalar < 0xDC00, end - p >= 6, p[0] == 0x5C, p[1] == 0x75 {
                let saved = p
                p += 2
                let low = try hex4()
                if low >= 0xDC00, low < 0xE000 {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    p = saved
                }
            }
            // A lone surrogate becomes U+FFFD, as JSON readers make it.
            let unicode = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            for unit in UTF8.encode(unicode)! { out.append(unit) }
        default: throw error("an unknown escape")
        }
    }

    private mutating func hex4() throws(ParquetRowDecoder.DecodeError) -> UInt32 {
        guard end - p >= 4 else { throw error("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = p.pointee
            let digit: UInt8
            switch c {
            case 0x30...0x39: digit = c - 0x30
            case 0x61...0x66: digit = c - 0x61 + 10
            case 0x41...0x46: digit = c - 0x41 + 10
            default: throw error("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
            p += 1
        }
        return value
    }
}
