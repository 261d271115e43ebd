#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes produced a piece at a time into one contiguous block of memory, which doubles when full: how standard
/// input and decompressed gzip are collected, since the reader needs the export in one buffer.
///
/// The block grows with `realloc`, which for blocks this large moves pages rather than copying them (glibc's
/// `mremap`), so a full buffer does not briefly cost twice its size; growth that fails, or that would pass the
/// machine's physical memory, is an input error naming the source rather than a crash.
struct GrowingBuffer: ByteCollector, ~Copyable {
    /// The block; the first ``count`` bytes are filled.
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// The number of bytes filled.
    var count = 0
    private let source: String
    /// Whether the block is still this buffer's to free (not handed over by ``take()``).
    private var owned = true

    /// An empty buffer of `capacity` bytes, for the bytes of `source` (a path or `standard input`, for messages).
    init(capacity: Int, source: String) throws(InputError) {
        self.source = source
        self.capacity = max(min(capacity, Self.memory), 1)
        guard let block = malloc(self.capacity) else { throw Self.outOfMemory(source, self.capacity) }
        base = block
    }

    /// Room for at least one more byte: the block doubles when it is full.
    mutating func reserveSpace() throws(InputError) {
        guard count == capacity else { return }
        guard capacity < Self.memory else {
            throw InputError.unreadable(
                path: source,
                reason: "it is larger than this machine's \(Deflate.describe(size: Self.memory)) of memory; "
                    + "give it as a file")
        }
        let bigger = min(capacity * 2, Self.memory)
        guard let block = realloc(base, bigger) else { throw Self.outOfMemory(source, bigger) }
        base = block
        capacity = bigger
    }

    /// Where the next byte goes, and how many fit there.
    var free: (start: UnsafeMutableRawPointer, count: Int) { (base + count, capacity - count) }

    /// Hands the block and its byte count to the caller, who frees it (``release(_:)``).
    mutating func take() -> (UnsafeMutableRawPointer, Int) {
        owned = false
        return (base, count)
    }

    /// Frees a block given by ``take()``.
    static func release(_ block: UnsafeMutableRawPointer) { freeBlock(block) }

    deinit { if owned { freeBlock(base) } }

    /// The machine's physical memory: more cannot be held in memory.
    static let memory: Int = {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 ? pages * size : Int.max / 2
    }()

    private static func outOfMemory(_ source: String, _ size: Int) -> InputError {
        InputError.unreadable(path: source, reason: "not enough memory to hold \(Deflate.describe(size: size)) of it")
    }
}

/// C's `free`, which ``GrowingBuffer``'s `free` property hides inside it.
private func freeBlock(_ block: UnsafeMutableRawPointer) { free(block) }

/// Where bytes produced a piece at a time go: memory (``GrowingBuffer``) or a temporary file (``SpoolFile``).
protocol ByteCollector: ~Copyable {
    /// Makes room for at least one more byte at ``free``.
    mutating func reserveSpace() throws(InputError)
    /// Where the next bytes go, and how many fit there.
    var free: (start: UnsafeMutableRawPointer, count: Int) { get }
    /// The number of bytes produced; the producer adds what it wrote at ``free``.
    var count: Int { get set }
}
