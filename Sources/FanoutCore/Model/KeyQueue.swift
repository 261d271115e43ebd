#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Interns keys in batches, so that the cache misses of many lookups overlap instead of following one another.
///
/// A lookup in a large ``KeyTable`` misses the caches (docs/performance.md "The read phase beside JSON parsers"):
/// the slot is somewhere in a table of
/// megabytes, and the key's bytes it points at somewhere else. Looked up one at a time, each key waits for both
/// misses. The queue instead hashes a key when it is read, asks the CPU to prefetch its slot, and hands back a
/// *ticket*; once ``depth`` / 2 more keys have been queued, the slot has arrived and the bytes it points at are
/// prefetched; the key is interned when ``depth`` keys have been queued after it, by which time both are in the
/// cache. Tickets count keys in the order they were queued and keys are interned in that order, so every key
/// gets the id that interning it at once would have given (first-seen order), and ``ids`` maps ticket `t` to its
/// id once ``flush(into:)`` ran.
///
/// The reader's key bytes are valid only until its next call, so the queue copies each key (up to
/// ``inlineBytes``), in whole words with zeros after its end: hashing it and comparing it with the table's copy
/// then take a few word operations instead of byte loops and `memcmp` calls, which were most of interning's
/// instructions. A longer key is rare, and is interned at once after the keys queued before it.
///
/// One queue serves one table: copies of a queue share its waiting entries and ids, so only one of them may be
/// used.
package struct KeyQueue {
    /// How many keys wait in the queue: enough that the first key's slot has arrived from memory when the
    /// queue is full (reading a key takes a few dozen nanoseconds, a miss to memory about a hundred).
    package static let depth = 16
    /// The longest key the queue copies; longer ones are interned at once.
    package static let inlineBytes = 48
    /// One entry: the hash, the length, the bytes.
    private static let stride = 64

    private let storage = QueueStorage(byteCount: depth * stride)
    /// The index of the oldest waiting entry, and how many wait.
    private var head = 0, waiting = 0

    /// An empty queue.
    package init() {}

    /// The number of tickets handed out.
    package var ticketCount: Int { storage.idCount + waiting }

    /// The id of each ticket resolved so far: `ids[t]` for ticket `t` (a copy; see ``withIDs(_:)``).
    package var ids: [KeyID] { withIDs { Array($0) } }

    /// Calls `body` with the id of each ticket resolved so far.
    package func withIDs<T>(_ body: (UnsafeBufferPointer<KeyID>) throws -> T) rethrows -> T {
        try body(UnsafeBufferPointer(start: storage.ids, count: storage.idCount))
    }

    /// Queues `bytes` for interning into `table` and returns its ticket.
    @inline(__always)
    package mutating func ticket(_ bytes: UnsafeRawBufferPointer, table: inout KeyTable) -> KeyID {
        let ticket = KeyID(truncatingIfNeeded: ticketCount)
        let count = bytes.count
        guard count <= Self.inlineBytes else {
            flush(into: &table)
            storage.append(table.intern(bytes))
            return ticket
        }
        if waiting == Self.depth { resolveOldest(into: &table) }
        let entry = storage.base + ((head &+ waiting) & (Self.depth &- 1)) &* Self.stride
        let hash = KeyTable.hash(bytes, copyingInto: (entry + 16).assumingMemoryBound(to: UInt64.self))
        table.prefetch(hash: hash)
        entry.storeBytes(of: hash, as: Int.self)
        entry.storeBytes(of: count, toByteOffset: 8, as: Int.self)
        waiting &+= 1
        // Halfway through the queue, a key's slot has arrived: the bytes it points at are asked for next.
        if waiting > Self.depth &>> 1 {
            let halfway = storage.base + ((head &+ waiting &- 1 &- Self.depth &>> 1) & (Self.depth &- 1)) &* Self.stride
            table.prefetchBytes(
                hash: halfway.load(as: Int.self), count: halfway.load(fromByteOffset: 8, as: Int.self))
        }
        return ticket
    }

    /// Interns every waiting key, so that ``ids`` covers every ticket handed out.
    package mutating func flush(into table: inout KeyTable) {
        while waiting > 0 { resolveOldest(into: &table) }
    }

    /// Forgets the tickets (after their facts were renumbered); the next ticket is 0 again.
    package mutating func reset(into table: inout KeyTable) {
        flush(into: &table)
        storage.removeIDs()
    }

    /// Frees the memory of the tickets' ids, after ``reset(into:)``.
    package mutating func freeIDs() { storage.freeIDs() }

    @inline(__always)
    private mutating func resolveOldest(into table: inout KeyTable) {
        let entry = storage.base + head &* Self.stride
        let hash = entry.load(as: Int.self)
        let count = entry.load(fromByteOffset: 8, as: Int.self)
        let words = UnsafePointer((entry + 16).assumingMemoryBound(to: UInt64.self))
        storage.append(table.intern(words: words, count: count, hash: hash))
        head = (head &+ 1) & (Self.depth &- 1)
        waiting &-= 1
    }
}

/// The queue's entries, one small allocation reused for the life of the queue, and the tickets' ids, in memory
/// of its own rather than an array: appending to an array checks that it is not shared, a call into the runtime
/// for each of millions of keys.
private final class QueueStorage: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    private(set) var ids: UnsafeMutablePointer<KeyID>?
    private(set) var idCount = 0
    private var idCapacity = 0

    init(byteCount: Int) { base = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64) }

    deinit {
        base.deallocate()
        free(ids)
    }

    @inline(__always) func append(_ id: KeyID) {
        if idCount == idCapacity { reserveIDs(max(1024, idCapacity * 2)) }
        ids.unsafelyUnwrapped[idCount] = id
        idCount &+= 1
    }

    /// Makes room for `capacity` ids in all.
    private func reserveIDs(_ capacity: Int) {
        guard capacity > idCapacity else { return }
        guard let grown = realloc(ids, capacity * MemoryLayout<KeyID>.stride) else { fatalError("out of memory") }
        ids = grown.assumingMemoryBound(to: KeyID.self)
        idCapacity = capacity
    }

    func removeIDs() { idCount = 0 }

    func freeIDs() {
        free(ids)
        ids = nil
        (idCount, idCapacity) = (0, 0)
    }
}
