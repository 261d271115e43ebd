/// Parquet's RLE / bit-packed hybrid encoding, in which a data page stores its definition and repetition levels,
/// and a dictionary-encoded page its values' indices into the dictionary (docs/tables.md "Parquet").
///
/// The values are runs: an RLE run is a header `count << 1` (a varint) and the value in `(bitWidth + 7) / 8` bytes,
/// little-endian; a bit-packed run is a header `groups << 1 | 1` and groups of 8 values, each `bitWidth` bits,
/// least significant bit first. A value repeated 8 times or more (nearly every level of a table: every row
/// present) becomes an RLE run, anything else groups of 8 bit-packed; a last group of fewer than 8 ends as RLE runs.
enum ParquetLevels {
    /// The bits a level up to `maximum` needs.
    static func bitWidth(_ maximum: Int) -> Int { maximum == 0 ? 0 : Int.bitWidth - maximum.leadingZeroBitCount }

    /// `levels` encoded, without the 4-byte length a data page puts before them.
    static func encode<Value: FixedWidthInteger & UnsignedInteger>(
        _ levels: UnsafeBufferPointer<Value>, bitWidth: Int
    ) -> [UInt8] {
        precondition(bitWidth >= 1 && bitWidth <= min(32, Value.bitWidth))
        var out: [UInt8] = []
        out.reserveCapacity(levels.count * bitWidth / 8 + 16)
        // levels[packedStart..<packedEnd]: values waiting as bit-packed groups (a multiple of 8)
        var packedStart = 0, packedEnd = 0
        let n = levels.count
        let valueBytes = (bitWidth + 7) / 8
        func rle(_ value: Value, _ count: Int) {
            ThriftCompactWriter.varint(UInt64(count) << 1, to: &out)
            var value = UInt64(value)
            for _ in 0..<valueBytes {
                out.append(UInt8(truncatingIfNeeded: value))
                value >>= 8
            }
        }
        func flushPacked() {
            guard packedEnd > packedStart else { return }
            ThriftCompactWriter.varint(UInt64((packedEnd - packedStart) / 8) << 1 | 1, to: &out)
            var accumulator: UInt64 = 0, bits = 0
            for k in packedStart..<packedEnd {
                accumulator |= UInt64(levels[k]) << UInt64(bits)
                bits += bitWidth
                while bits >= 8 {
                    out.append(UInt8(truncatingIfNeeded: accumulator))
                    accumulator >>= 8
                    bits -= 8
                }
            }
            // 8 values of any width fill whole bytes.
            packedStart = packedEnd
        }
        var i = 0
        while i + 8 <= n {
            let value = levels[i]
            var j = i + 1
            while j < n, levels[j] == value { j += 1 }
            if j - i >= 8 {
                flushPacked()
                rle(value, j - i)
                i = j
                (packedStart, packedEnd) = (i, i)
            } else {
                i += 8
                packedEnd = i
            }
        }
        flushPacked()
        while i < n {
            let value = levels[i]
            var j = i + 1
            while j < n, levels[j] == value { j += 1 }
            rle(value, j - i)
            i = j
        }
        return out
    }

    /// Decodes `count` levels (for tests: the writer's only reader is the consumers').
    static func decode(_ bytes: [UInt8], bitWidth: Int, count: Int) -> [UInt8]? {
        decodeWide(bytes, bitWidth: bitWidth, count: count).map { $0.map { UInt8($0) } }
    }

    /// Decodes `count` values up to 32 bits wide (for tests: dictionary indices).
    static func decodeWide(_ bytes: [UInt8], bitWidth: Int, count: Int) -> [UInt32]? {
        var out: [UInt32] = [], at = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0, shift: UInt64 = 0
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }
        while out.count < count {
            guard let header = varint() else { return nil }
            if header & 1 == 0 {
                let valueBytes = (bitWidth + 7) / 8
                guard at + valueBytes <= bytes.count else { return nil }
                var value: UInt32 = 0
                for k in 0..<valueBytes { value |= UInt32(bytes[at + k]) << UInt32(8 * k) }
                out += Array(repeating: value, count: Int(header >> 1))
                at += valueBytes
            } else {
                let values = Int(header >> 1) * 8
                var accumulator: UInt64 = 0, bits = 0
                for _ in 0..<values {
                    while bits < bitWidth {
                        guard at < bytes.count else { return nil }
                        accumulator |= UInt64(bytes[at]) << UInt64(bits)
                        at += 1
                        bits += 8
                    }
                    out.append(UInt32(accumulator & (1 << UInt64(bitWidth) - 1)))
                    accumulator >>= UInt64(bitWidth)
                    bits -= bitWidth
                }
            }
        }
        return at == bytes.count ? Array(out.prefix(count)) : nil
    }
}
