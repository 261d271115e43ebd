import FanoutJSON

/// The rows of one table waiting to be handed to the output: a block of memory written with plain copies.
/// (An array would check its uniqueness and capacity through a generic append on every one of the twenty or so
/// pieces of a row.) Rows are small; the block is about ``TableRowSink``'s flush size and grows only for a
/// row larger than what is left.
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
