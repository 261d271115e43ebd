import FanoutJSON

/// One leaf column's part of the row group being written: its values PLAIN-encoded (a `BYTE_ARRAY` as a 4-byte
/// length and the bytes, an `INT64` or `DOUBLE` as 8 bytes little-endian, `BOOLEAN`s a bit each), and its levels.
struct ParquetColumnChunk {
    let leaf: ParquetSchema.Leaf
    var values = ByteBuffer()
    /// One definition level per value or null (only when the leaf has levels), one repetition level likewise.
    var definitions: [UInt8] = []
    var repetitions: [UInt8] = []
    /// Values and nulls (the page's `num_values`).
    var count = 0
    /// Booleans not yet a whole byte, and how many.
    private var bits: UInt8 = 0, bitCount = 0

    init(_ leaf: ParquetSchema.Leaf) { self.leaf = leaf }

    /// A boolean value (its levels are the caller's).
    mutating func appendBool(_ value: Bool) {
        if value { bits |= 1 << UInt8(bitCount) }
        bitCount += 1
        if bitCount == 8 {
            values.append(bits)
            (bits, bitCount) = (0, 0)
        }
    }

    /// Ends the values: booleans not yet a whole byte are written, padded with zeros.
    mutating func finishValues() {
        if bitCount > 0 {
            values.append(bits)
            (bits, bitCount) = (0, 0)
        }
    }

    /// Forgets what the row group held, keeping the memory.
    mutating func reset() {
        values.removeAll()
        definitions.removeAll(keepingCapacity: true)
        repetitions.removeAll(keepingCapacity: true)
        count = 0
    }

    /// The bytes held: what the row group's size is measured by.
    var bufferedBytes: Int { values.count + definitions.count + repetitions.count }
}

/// A column chunk's `BYTE_ARRAY` values as a dictionary (docs/tables.md "Parquet"): the distinct values
/// PLAIN-encoded in the order first seen (the dictionary page), and each value's index into them (the data page's
/// `RLE_DICTIONARY` values). Built when the row group ends, from the chunk's PLAIN values, with an open-addressing
/// hash table of the distinct values; its memory is kept from one row group to the next.
struct ParquetDictionary {
    /// The distinct values, PLAIN-encoded (a 4-byte length and the bytes each).
    private(set) var values = ByteBuffer()
    /// Per value of the chunk, its index into ``values``.
    private(set) var indices: [UInt32] = []
    /// How many distinct values.
    private(set) var count = 0
    /// The hash table: 0 for an empty slot, else a distinct value's index + 1.
    private var slots: [UInt32] = []
    /// Per distinct value: its offset in ``values`` (at its length) and its hash's upper half.
    private var entries: [(offset: UInt32, hash: UInt32)] = []

    /// Builds the dictionary of `plain` (PLAIN-encoded `BYTE_ARRAY` values); false, the dictionary abandoned, once
    /// it would hold more than `maxDistinct` values or `maxBytes` bytes.
    mutating func build(_ plain: UnsafeRawBufferPointer, maxDistinct: Int, maxBytes: Int) -> Bool {
        values.removeAll()
        indices.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        count = 0
        guard maxDistinct > 0, let base = plain.baseAddress else { return false }
        var capacity = 16
        while capacity < 2 * maxDistinct { capacity *= 2 }
        // The table is moved out of `self` while it is written, `self`'s other properties with it.
        var table: [UInt32] = []
        swap(&table, &slots)
        defer { swap(&table, &slots) }
        if table.count != capacity {
            table = Array(repeating: 0, count: capacity)
        } else {
            table.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        let mask = capacity - 1
        var at = 0
        let end = plain.count
        return table.withUnsafeMutableBufferPointer { slots in
            while at < end {
                let length = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                let bytes = base + at + 4
                let hash = Self.hash(bytes, length)
                var slot = Int(truncatingIfNeeded: hash) & mask
                let tag = UInt32(truncatingIfNeeded: hash >> 32)
                while true {
                    let entry = slots[slot]
                    if entry == 0 {
                        guard count < maxDistinct, values.count + 4 + length <= maxBytes else { return false }
                        entries.append((UInt32(values.count), tag))
                        values.append(base + at, 4 + length)
                        count += 1
                        slots[slot] = UInt32(count)
                        indices.append(UInt32(count - 1))
                        break
                    }
                    let index = Int(entry) - 1
                    if entries[index].hash == tag {
                        let offset = Int(entries[index].offset)
                        let stored = values.base + offset
                        if stored.loadUnaligned(as: UInt32.self)
                            == base.loadUnaligned(fromByteOffset: at, as: UInt32.self),
                            Self.equal(stored + 4, bytes, length)
                        {
                            indices.append(UInt32(index))
                            break
                        }
                    }
                    slot = (slot + 1) & mask
                }
                at += 4 + length
            }
            return true
        }
    }

    /// Whether `length` bytes at `a` and `b` are the same (inline: the strings are short, a call to memcmp costs
    /// more than the comparison).
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ length: Int) -> Bool {
        var i = 0
        while i + 8 <= length {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            {
                return false
            }
            i += 8
        }
        while i < length {
            if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
            i += 1
        }
        return true
    }

    /// A hash of `length` bytes at `bytes` (8 bytes at a time, multiplied and folded).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawPointer, _ length: Int) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(length)
        var i = 0
        while i + 8 <= length {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            i += 8
        }
        var tail: UInt64 = 0, shift: UInt64 = 0
        while i < length {
            tail |= UInt64(bytes.load(fromByteOffset: i, as: UInt8.self)) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 29)
    }
}
