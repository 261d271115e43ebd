import FanoutLocked
import FanoutTemplates
import NIOCore

/// `serve`'s rendered pages, each the ready body of its response, kept by the page's input key (docs/serve.md "The
/// page cache"): the key hashes everything the page shows, so a page whose inputs are unchanged, also across a
/// reload, is answered with the bytes it was rendered to, and one whose inputs changed has a new key and is rendered
/// again. At most `capacity` bytes of bodies are kept; past that, the clock algorithm evicts the pages asked for
/// least recently (an entry asked for since the hand last passed it is passed over once).
final class PageCache: Sendable {
    /// How full the cache is, and how it has answered.
    struct Usage: Sendable {
        var pages = 0
        var bytes = 0
        var hits = 0
        var misses = 0
    }

    private struct Entry {
        let key: UInt64
        /// The page's path: a key is a 64-bit hash, and a page is never answered at another path.
        let path: String
        let body: ByteBuffer
    }

    private struct State {
        var entries: [Entry?] = []
        /// Whether each entry was asked for since the clock's hand last passed it.
        var referenced: [Bool] = []
        var slots: [UInt64: Int] = [:]
        var free: [Int] = []
        var hand = 0
        var usage = Usage()
    }

    /// The most bytes of bodies kept; 0 keeps none.
    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) { self.capacity = capacity }

    /// The cache's key of a page with input key `inputKey` answered while the last reload failed with `error` (nil:
    /// it loaded): the failure's banner is part of the body.
    static func key(_ inputKey: UInt64, reloadError error: String?) -> UInt64 {
        guard let error else { return inputKey }
        var hasher = StableHasher()
        hasher.combine(inputKey)
        hasher.combine(error)
        return hasher.finalize()
    }

    /// The body kept for `key` at `path`, counted as a hit, or nil, counted as a miss.
    func body(_ key: UInt64, path: String) -> ByteBuffer? {
        guard capacity > 0 else { return nil }
        return state.withLock { state in
            guard let slot = state.slots[key], let entry = state.entries[slot], entry.path == path else {
                state.usage.misses += 1
                return nil
            }
            state.referenced[slot] = true
            state.usage.hits += 1
            return entry.body
        }
    }

    /// Keeps `body` for `key` at `path`, evicting what it needs room from; a body larger than the whole cache is
    /// not kept.
    func insert(_ key: UInt64, path: String, body: ByteBuffer) {
        let size = body.readableBytes
        guard size <= capacity else { return }
        state.withLock { state in
            guard state.slots[key] == nil else { return }  // two requests rendered it at once
            while state.usage.bytes + size > capacity { Self.evictOne(&state) }
            let slot: Int
            if let reused = state.free.popLast() {
                slot = reused
                state.entries[slot] = Entry(key: key, path: path, body: body)
                state.referenced[slot] = false
            } else {
                slot = state.entries.count
                state.entries.append(Entry(key: key, path: path, body: body))
                state.referenced.append(false)
            }
            state.slots[key] = slot
            state.usage.pages += 1
            state.usage.bytes += size
        }
    }

    /// A copy of the figures.
    var usage: Usage { state.withLock { $0.usage } }

    /// Moves the hand to the first entry not asked for since it last passed, clearing the marks it passes, and
    /// evicts that entry. Only called while some entry is kept.
    private static func evictOne(_ state: inout State) {
        while true {
            let slot = state.hand
            state.hand = (state.hand + 1) % state.entries.count
            guard let entry = state.entries[slot] else { continue }
            if state.referenced[slot] {
                state.referenced[slot] = false
                continue
            }
            state.entries[slot] = nil
            state.slots[entry.key] = nil
            state.free.append(slot)
            state.usage.pages -= 1
            state.usage.bytes -= entry.body.readableBytes
            return
        }
    }
}
