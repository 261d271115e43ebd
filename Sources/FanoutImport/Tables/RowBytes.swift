import FanoutJSON

/// Bytes written a piece at a time into a block of memory, with plain copies: a table's rows waiting for the
/// output, and the keys of the facts being read. (An array checks its uniqueness and capacity through a
/// generic append on each of the twenty or so pieces of a row.) The block grows only when a piece does not fit.
struct RowBytes: JSONOutput {
    /// Owns the block, so that a copy of the value does not free it twice.
    private final class Block {
        var base: UnsafeMutableRawPointer
        init(_ capacity: Int) { base = .allocate(byteCount: capacity, alignment: 8) }
        deinit { base.deallocate() }
    }

    private let block: Block
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// The bytes written.
    private(set) var count = 0

    init(capacity: Int) {
        block = Block(capacity)
        base = block.base
        self.capacity = capacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(1) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(bytes.count) }
        (base + count).copyMemory(from: from, byteCount: bytes.count)
        count += bytes.count
    }

    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { appendBytes(UnsafeRawBufferPointer(bytes)) }

    /// Forgets the bytes written, keeping the block.
    mutating func removeAll() { count = 0 }

    /// Forgets the last `k` bytes written.
    mutating func removeLast(_ k: Int) { count -= k }

    /// The bytes written.
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

extension RowBytes {
    static func += (out: inout RowBytes, text: String.UTF8View) {
        var text = String(text)
        text.withUTF8 { out.appendBytes(UnsafeRawBufferPointer($0)) }
    }
}
