/// Interns keys in batches, so that the cache misses of many lookups overlap instead of following one another.
///
/// A lookup in a large ``KeyTable`` misses the caches (README "Performance"): the slot is somewhere in a table of
/// tens of megabytes. Looked up one at a time, each key waits for its miss. The queue instead hashes a key when it
/// is read, asks the CPU to prefetch its slot, and hands back a *ticket*; the key is interned only when
/// ``depth`` more keys have been queued after it, by which time its slot is in the cache. Tickets count keys in
/// the order they were queued and keys are interned in that order, so every key gets the id that interning it at
/// once would have given (first-seen order), and ``ids`` maps ticket `t` to its id once ``flush(into:)`` ran.
///
/// The reader's key bytes are valid only until its next call, so the queue copies each key (up to
/// ``inlineBytes``); a longer key is rare, and is interned at once after the keys queued before it.
///
/// One queue serves one table: copies of a queue share its waiting entries, so only one of them may be used.
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
    /// The id of each ticket resolved so far: `ids[t]` for ticket `t`.
    package private(set) var ids: [KeyID] = []

    /// An empty queue.
    package init() {}

    /// The number of tickets handed out.
    package var ticketCount: Int { ids.count + waiting }

    /// Makes room for the tickets of `bytes` bytes of an export (a key in 32 bytes or more: Makestagram exports
    /// take 44), so that ``ids`` is not grown while they are read (see ``Dataset/reserveCapacity(forBytes:)``).
    package mutating func reserveTickets(forBytes bytes: Int) { ids.reserveCapacity(bytes / 32) }

    /// Queues `bytes` for interning into `table` and returns its ticket.
    @inline(__always)
    package mutating func ticket(_ bytes: UnsafeRawBufferPointer, table: inout KeyTable) -> KeyID {
        let ticket = KeyID(ticketCount)
        guard bytes.count <= Self.inlineBytes else {
            flush(into: &table)
            ids.append(table.intern(bytes))
            return ticket
        }
        if waiting == Self.depth { resolveOldest(into: &table) }
        let hash = KeyTable.hash(bytes)
        table.prefetch(hash: hash)
        let entry = storage.base + ((head &+ waiting) & (Self.depth - 1)) * Self.stride
        entry.storeBytes(of: hash, as: Int.self)
        entry.storeBytes(of: bytes.count, toByteOffset: 8, as: Int.self)
        if bytes.count > 0 { (entry + 16).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        waiting &+= 1
        return ticket
    }

    /// Interns every waiting key, so that ``ids`` covers every ticket handed out.
    package mutating func flush(into table: inout KeyTable) {
        while waiting > 0 { resolveOldest(into: &table) }
    }

    /// Forgets the tickets (after their facts were renumbered); the next ticket is 0 again.
    package mutating func reset(into table: inout KeyTable) {
        flush(into: &table)
        ids = []
    }

    @inline(__always)
    private mutating func resolveOldest(into table: inout KeyTable) {
        let entry = storage.base + head * Self.stride
        let hash = entry.load(as: Int.self)
        let count = entry.load(fromByteOffset: 8, as: Int.self)
        ids.append(table.intern(UnsafeRawBufferPointer(start: entry + 16, count: count), hash: hash))
        head = (head &+ 1) & (Self.depth - 1)
        waiting &-= 1
    }
}

/// The queue's entries: one small allocation, reused for the life of the queue.
private final class QueueStorage: @unchecked Sendable {
    let base: UnsafeMutableRawPointer

    init(byteCount: Int) { base = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64) }

    deinit { base.deallocate() }
}
