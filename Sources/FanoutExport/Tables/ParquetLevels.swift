/// Parquet's RLE / bit-packed hybrid encoding, in which a data page stores its definition and repetition levels
/// (docs/tables.md "Parquet").
///
/// The levels are runs: an RLE run is a header `count << 1` (a varint) and the value in a byte (levels here are at
/// most 2 bits wide); a bit-packed run is a header `groups << 1 | 1` and groups of 8 values, each `bitWidth` bits,
/// least significant bit first. A value repeated 8 times or more (nearly every level of a table: every row
/// present) becomes an RLE run, anything else groups of 8 bit-packed; a last group of fewer than 8 ends as RLE runs.
enum ParquetLevels {
    /// The bits a level up to `maximum` needs.
    static func bitWidth(_ maximum: Int) -> Int { maximum == 0 ? 0 : Int.bitWidth - maximum.leadingZeroBitCount }

    /// `levels` encoded, without the 4-byte length a data page puts before them.
    static func encode(_ levels: UnsafeBufferPointer<UInt8>, bitWidth: Int) -> [UInt8] {
        precondition(bitWidth >= 1 && bitWidth <= 8)
        var out: [UInt8] = []
        var packed: [UInt8] = []  // values waiting as bit-packed groups (a multiple of 8)
        let n = levels.count
        func rle(_ value: UInt8, _ count: Int) {
            ThriftCompactWriter.varint(UInt64(count) << 1, to: &out)
            out.append(value)
        }
        func flushPacked() {
            guard !packed.isEmpty else { return }
            ThriftCompactWriter.varint(UInt64(packed.count / 8) << 1 | 1, to: &out)
            var accumulator: UInt32 = 0, bits = 0
            for value in packed {
                accumulator |= UInt32(value) << UInt32(bits)
                bits += bitWidth
                while bits >= 8 {
                    out.append(UInt8(truncatingIfNeeded: accumulator))
                    accumulator >>= 8
                    bits -= 8
                }
            }
            // 8 values of any width fill whole bytes.
            packed.removeAll(keepingCapacity: true)
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
            } else {
                packed.append(contentsOf: levels[i..<i + 8])
                i += 8
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
        var out: [UInt8] = [], at = 0
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
                guard at < bytes.count else { return nil }
                out += Array(repeating: bytes[at], count: Int(header >> 1))
                at += 1
            } else {
                let values = Int(header >> 1) * 8
                var accumulator: UInt32 = 0, bits = 0
                for _ in 0..<values {
                    while bits < bitWidth {
                        guard at < bytes.count else { return nil }
                        accumulator |= UInt32(bytes[at]) << UInt32(bits)
                        at += 1
                        bits += 8
                    }
                    out.append(UInt8(accumulator & (1 << UInt32(bitWidth) - 1)))
                    accumulator >>= UInt32(bitWidth)
                    bits -= bitWidth
                }
            }
        }
        return at == bytes.count ? Array(out.prefix(count)) : nil
    }
}
