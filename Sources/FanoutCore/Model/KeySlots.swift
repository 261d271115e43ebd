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

    /// `capacity` empty slots; `capacity` is a power of two.
    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity * Self.slotSize, alignment: Self.slotSize)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: capacity * Self.slotSize)
    }

    deinit { base.deallocate() }

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

    /// The inline bytes of a slot.
    @inline(__always) func inline(_ slot: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(base + slot * Self.slotSize + 8)
    }
}
