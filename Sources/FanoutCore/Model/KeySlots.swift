#if canImport(Glibc)
    import Glibc
#endif

/// The hash table behind ``KeyTable``: 16 bytes a slot, four to a cache line, holding the key's id, length and
/// hash tag, and where its bytes are in the table's ``KeyBytes``.
///
/// Slots used to be 64 bytes holding each key's first 56 bytes, so that a lookup missed the cache once. But the
/// table was then a tenth of the export's size, all of it fresh memory that the kernel zeroes page by page before
/// the process sees it, and on a virtual machine that was most of the read's kernel time (docs/performance.md "The
/// read phase beside JSON parsers").
/// A slot now points at the key's bytes, which the table keeps anyway; batched interning prefetches the slot and,
/// a few keys later, the bytes it points at (``KeyQueue``), so neither access waits for memory.
final class KeySlots: @unchecked Sendable {
    static let slotSize = 16

    let base: UnsafeMutableRawPointer
    let capacity: Int
    var mask: Int { capacity - 1 }

    /// Whether `base` was mapped (large tables) rather than allocated.
    private let mapped: Bool

    /// `capacity` empty slots; `capacity` is a power of two.
    ///
    /// A large table is mapped, so that its pages arrive zeroed from the kernel (no second pass to clear them),
    /// and in 2 MB pages where the system allows it (`madvise`): lookups of random keys would otherwise miss the
    /// TLB as well as the caches, and the prefetches of batched interning (``KeyQueue``) wait for those page walks.
    init(capacity: Int) {
        self.capacity = capacity
        let bytes = capacity * Self.slotSize
        #if canImport(Glibc)
            if bytes >= HugePages.size,
                let region = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                region != MAP_FAILED
            {
                _ = madvise(region, bytes, MADV_HUGEPAGE)
                base = region
                mapped = true
                return
            }
        #endif
        mapped = false
        base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    }

    deinit {
        #if canImport(Glibc)
            if mapped {
                munmap(base, capacity * Self.slotSize)
                return
            }
        #endif
        base.deallocate()
    }

    /// A copy, for copy-on-write.
    func copy() -> KeySlots {
        let fresh = KeySlots(capacity: capacity)
        fresh.base.copyMemory(from: base, byteCount: capacity * Self.slotSize)
        return fresh
    }

    /// The header word of a slot: id + 1 in the low 32 bits (0 = empty), then the signature (length and tag).
    @inline(__always) func header(_ slot: Int) -> UInt64 {
        base.load(fromByteOffset: slot &* Self.slotSize, as: UInt64.self)
    }

    /// The header's upper half for a key of `length` bytes with hash `hash`.
    @inline(__always) static func signature(length: Int, hash: Int) -> UInt64 {
        UInt64(min(length, 255)) | (UInt64(truncatingIfNeeded: hash) >> 40) << 8
    }

    /// Where the bytes of the key in `slot` start in the table's ``KeyBytes``, and how many there are.
    @inline(__always) func location(_ slot: Int) -> (offset: Int, count: Int) {
        let word = base.load(fromByteOffset: slot &* Self.slotSize &+ 8, as: UInt64.self)
        return (Int(truncatingIfNeeded: word & 0xFF_FFFF_FFFF), Int(truncatingIfNeeded: word &>> 40))
    }

    /// Fills an empty slot with key `id`, whose bytes are the `count` at `offset` in the table's ``KeyBytes``.
    /// Offsets below 2^40 and lengths below 2^24 fit, far more than an export has.
    func store(_ slot: Int, id: KeyID, signature: UInt64, offset: Int, count: Int) {
        precondition(offset < 1 << 40 && count < 1 << 24, "key table: a key beyond what a slot can locate")
        let at = base + slot * Self.slotSize
        at.storeBytes(of: UInt64(UInt32(id + 1)) | signature << 32, as: UInt64.self)
        at.storeBytes(of: UInt64(offset) | UInt64(count) << 40, toByteOffset: 8, as: UInt64.self)
    }
}
