/// Bytes produced a piece at a time into one contiguous block of memory, which doubles when full: how standard
/// input and decompressed gzip are collected, since the reader needs the export in one buffer.
struct GrowingBuffer: ByteCollector, ~Copyable {
    /// The block; the first ``count`` bytes are filled.
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// The number of bytes filled.
    var count = 0

    /// An empty buffer of `capacity` bytes.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(byteCount: self.capacity, alignment: 8)
    }

    /// Room for at least one more byte: the block doubles when it is full.
    mutating func reserveSpace() {
        guard count == capacity else { return }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 8)
        bigger.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    /// Where the next byte goes, and how many fit there.
    var free: (start: UnsafeMutableRawPointer, count: Int) { (base + count, capacity - count) }

    /// Hands the block and its byte count to the caller, who deallocates it.
    consuming func take() -> (UnsafeMutableRawPointer, Int) {
        let result = (base, count)
        discard self
        return result
    }

    deinit { base.deallocate() }
}

/// Where bytes produced a piece at a time go: memory (``GrowingBuffer``) or a temporary file (``SpoolFile``).
protocol ByteCollector: ~Copyable {
    /// Makes room for at least one more byte at ``free``.
    mutating func reserveSpace() throws(InputError)
    /// Where the next bytes go, and how many fit there.
    var free: (start: UnsafeMutableRawPointer, count: Int) { get }
    /// The number of bytes produced; the producer adds what it wrote at ``free``.
    var count: Int { get set }
}
