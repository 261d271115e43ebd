/// Bytes appended into one block of memory with plain copies (a Parquet column's values, as they are read from the
/// rows); the block grows when a piece does not fit, and is kept from one row group to the next.
struct ParquetBytes {
    private final class Block {
        var base: UnsafeMutableRawPointer
        init(_ capacity: Int) { base = .allocate(byteCount: capacity, alignment: 8) }
        deinit { base.deallocate() }
    }

    private let block: Block
    private(set) var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 1 << 12) {
        block = Block(capacity)
        base = block.base
        self.capacity = capacity
    }

    @inline(__always)
    mutating func reserve(_ needed: Int) {
        if count + needed > capacity { grow(needed) }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawPointer, _ length: Int) {
        reserve(length)
        (base + count).copyMemory(from: bytes, byteCount: length)
        count += length
    }

    /// Appends `value` little-endian (Parquet's PLAIN encoding of integers and doubles).
    @inline(__always)
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        reserve(MemoryLayout<T>.size)
        (base + count).storeBytes(of: value.littleEndian, as: T.self)
        count += MemoryLayout<T>.size
    }

    /// Overwrites the 4 bytes at `offset` with `value` little-endian (a string's length, known once it is read).
    @inline(__always)
    mutating func storeLength(_ value: UInt32, at offset: Int) {
        (base + offset).storeBytes(of: value.littleEndian, as: UInt32.self)
    }

    mutating func removeAll() { count = 0 }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    private mutating func grow(_ needed: Int) {
        var bigger = capacity * 2
        while bigger < count + needed { bigger *= 2 }
        let new = UnsafeMutableRawPointer.allocate(byteCount: bigger, alignment: 8)
        new.copyMemory(from: base, byteCount: count)
        block.base.deallocate()
        block.base = new
        base = new
        capacity = bigger
    }
}

/// One leaf column's part of the row group being written: its values PLAIN-encoded (a `BYTE_ARRAY` as a 4-byte
/// length and the bytes, an `INT64` or `DOUBLE` as 8 bytes little-endian, `BOOLEAN`s a bit each), and its levels.
struct ParquetColumnChunk {
    let leaf: ParquetSchema.Leaf
    var values = ParquetBytes()
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
