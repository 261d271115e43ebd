#if canImport(Glibc)
import Glibc
#endif

/// The hash table behind ``KeyTable``: one 64-byte cache line per slot, holding the key's id, length, hash
/// tag and its first 56 bytes.
///
/// Interning is bound by memory latency, not instructions: millions of lookups of random keys each used to
/// miss the cache three times (slot, offsets, key bytes). With the key inline in its slot, a lookup of a
/// key of up to 56 bytes (uids, push IDs) costs one miss.
final class KeySlots: @unchecked Sendable {
    static let slotSize = 64
    static let inlineBytes = 56

    let base: UnsafeMutableRawPointer
    let capacity: Int
    var mask: Int { capacity - 1 }

    /// Whether `base` was mapped (large tables) rather than allocated.
    private let mapped: Bool

    /// Tables from this size on are mapped in huge pages where the system offers them.
    static let hugePageBytes = 2 << 20

    /// `capacity` empty slots; `capacity` is a power of two.
    ///
    /// A large table is mapped, so that its pages arrive zeroed from the kernel (no second pass to clear them),
    /// and in 2 MB pages where the system allows it (`madvise`): lookups of random keys would otherwise miss the
    /// TLB as well as the caches, and the prefetches of batched interning (``KeyQueue``) wait for those page walks.
    init(capacity: Int) {
        self.capacity = capacity
        let bytes = capacity * Self.slotSize
        #if canImport(Glibc)
        if bytes >= Self.hugePageBytes,
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
        base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: Self.slotSize)
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

    /// The header word of a slot: id + 1 in the low 32 bits (0 = empty), then length and tag.
    @inline(__always) func header(_ slot: Int) -> UInt64 {
        base.load(fromByteOffset: slot * Self.slotSize, as: UInt64.self)
    }

    /// The header's upper half for a key of `length` bytes with hash `hash`.
    @inline(__always) static func signature(length: Int, hash: Int) -> UInt64 {
        UInt64(min(length, 255)) | (UInt64(truncatingIfNeeded: hash) >> 40) << 8
    }

    /// Fills an empty slot.
    func store(_ slot: Int, id: KeyID, signature: UInt64, bytes: UnsafeRawBufferPointer) {
        let at = base + slot * Self.slotSize
        at.storeBytes(of: UInt64(UInt32(id + 1)) | signature << 32, as: UInt64.self)
        let n = min(bytes.count, Self.inlineBytes)
        if n > 0 { (at + 8).copyMemory(from: bytes.baseAddress!, byteCount: n) }
    }

    /// The inline bytes of a slot as words (after the key's end, zeros).
    @inline(__always) func words(_ slot: Int) -> UnsafePointer<UInt64> {
        UnsafePointer((base + slot * Self.slotSize + 8).assumingMemoryBound(to: UInt64.self))
    }

    /// The inline bytes of a slot.
    @inline(__always) func inline(_ slot: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(base + slot * Self.slotSize + 8)
    }
}
