/// Bytes written a piece at a time into one block of memory, with plain copies: a table's rows waiting for the
/// output, the keys of the facts being read, a Parquet column's values. (An array checks its uniqueness and
/// capacity through a generic append on each of the twenty or so pieces of a row.) The block doubles only when a
/// piece does not fit.
///
/// A copy shares the block with the original; only one of them may be written to after the copy.
public struct ByteBuffer: JSONOutput {
    /// Owns the block, so that a copy of the value does not free it twice.
    @usableFromInline final class Block {
        @usableFromInline var base: UnsafeMutableRawPointer
        @usableFromInline init(_ capacity: Int) { base = .allocate(byteCount: capacity, alignment: 8) }
        deinit { base.deallocate() }
    }

    @usableFromInline let block: Block
    @usableFromInline var start: UnsafeMutableRawPointer
    @usableFromInline var capacity: Int
    @usableFromInline var written = 0

    /// The block's start (it moves when the block grows).
    @inlinable public var base: UnsafeMutableRawPointer { start }
    /// The bytes written.
    @inlinable public var count: Int { written }

    /// An empty buffer of `capacity` bytes.
    @inlinable
    public init(capacity: Int = 1 << 12) {
        block = Block(max(capacity, 1))
        start = block.base
        self.capacity = max(capacity, 1)
    }

    /// Makes room for `needed` more bytes.
    @inlinable @inline(__always)
    public mutating func reserve(_ needed: Int) {
        if written + needed > capacity { grow(needed) }
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if written == capacity { grow(1) }
        start.storeBytes(of: byte, toByteOffset: written, as: UInt8.self)
        written += 1
    }

    @inlinable @inline(__always)
    public mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress else { return }
        append(from, bytes.count)
    }

    @inlinable
    public mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { appendBytes(UnsafeRawBufferPointer(bytes)) }

    /// Appends the `length` bytes at `bytes`.
    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeRawPointer, _ length: Int) {
        reserve(length)
        (start + written).copyMemory(from: bytes, byteCount: length)
        written += length
    }

    /// Appends `value` little-endian (Parquet's PLAIN encoding of integers and doubles).
    @inlinable @inline(__always)
    public mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        reserve(MemoryLayout<T>.size)
        (start + written).storeBytes(of: value.littleEndian, as: T.self)
        written += MemoryLayout<T>.size
    }

    /// Overwrites the 4 bytes at `offset` with `value` little-endian (a length, known once what it measures is
    /// written).
    @inlinable @inline(__always)
    public mutating func storeLength(_ value: UInt32, at offset: Int) {
        (start + offset).storeBytes(of: value.littleEndian, as: UInt32.self)
    }

    /// Forgets the bytes written, keeping the block.
    @inlinable
    public mutating func removeAll() { written = 0 }

    /// Forgets the last `k` bytes written.
    @inlinable
    public mutating func removeLast(_ k: Int) { written -= k }

    /// The bytes written.
    @inlinable
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: written) }

    @usableFromInline
    mutating func grow(_ needed: Int) {
        var bigger = capacity * 2
        while bigger < written + needed { bigger *= 2 }
        let new = UnsafeMutableRawPointer.allocate(byteCount: bigger, alignment: 8)
        new.copyMemory(from: start, byteCount: written)
        block.base.deallocate()
        block.base = new
        start = new
        capacity = bigger
    }
}

extension ByteBuffer {
    /// Appends the UTF-8 bytes of `text`.
    public static func += (out: inout ByteBuffer, text: String.UTF8View) {
        var text = String(text)
        text.withUTF8 { out.appendBytes(UnsafeRawBufferPointer($0)) }
    }
}
