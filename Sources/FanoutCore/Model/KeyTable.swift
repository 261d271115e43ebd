import CPrefetch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The interned id of a database key (a uid or a post key): an index into a ``KeyTable``.
public typealias KeyID = Int32

/// Marks "no key" in fields that may be absent, so that facts stay small plain values. An inlinable constant,
/// not a global `let`: other modules read a global through an accessor call, over a million times in a read.
@inlinable package var noKey: KeyID { -1 }

/// Interns database keys: every distinct key's bytes are stored once and facts refer to them by ``KeyID``.
///
/// Exports repeat the same few hundred thousand uids and post keys millions of times (every like, follow
/// and timeline entry names two of them), so facts hold 4-byte ids instead of strings. The table keeps the
/// bytes one after another (``KeyBytes``) and finds them with open addressing (``KeySlots``), which avoids a
/// `String` allocation per lookup when keys come straight from the JSON reader's buffer.
package struct KeyTable: Sendable {
    private var bytes = KeyBytes()
    /// Where each key's bytes start in ``bytes``, and after the last, where they end.
    private var starts: [Int] = [0]
    private var slots = KeySlots(capacity: 1024)
    /// An empty table.
    package init() {}

    /// Makes room for `count` keys without growing, when the table is still empty. Growing rehashes every key
    /// so far, a cache miss each; reading a large export sizes the table once from the file's size instead.
    /// The bytes and offsets are sized too, at 24 bytes a key (uids take 28, push IDs 20).
    package mutating func reserveCapacity(_ count: Int) {
        guard self.count == 0 else { return }
        var capacity = slots.capacity
        while count * 5 > capacity * 3 { capacity *= 2 }
        if capacity > slots.capacity { slots = KeySlots(capacity: capacity) }
        if !isKnownUniquelyReferenced(&bytes) { bytes = bytes.copy() }
        bytes.reserve(count * 24)
        starts.reserveCapacity(count + 1)
        HugePages.advise(&starts)
    }

    /// The number of distinct keys.
    package var count: Int { starts.count - 1 }

    /// Returns the id of `bytes`, adding it when new.
    package mutating func intern(_ bytes: UnsafeRawBufferPointer) -> KeyID {
        intern(bytes, hash: Self.hash(bytes))
    }

    /// Returns the id of `bytes`, whose ``hash(_:)`` is `hash`, adding it when new. A ``KeyQueue`` hashes a key
    /// when it queues it, to prefetch its slot, and interns it here a few keys later.
    package mutating func intern(_ bytes: UnsafeRawBufferPointer, hash: Int) -> KeyID {
        let (found, slot) = find(bytes, hash: hash)
        if let found { return found }
        return insert(bytes, hash: hash, at: slot)
    }

    /// Adds `key`, whose ``hash(_:)`` is `hash`, in the empty slot `slot`, where a lookup for it stopped.
    private mutating func insert(_ key: UnsafeRawBufferPointer, hash: Int, at slot: Int) -> KeyID {
        if !isKnownUniquelyReferenced(&slots) { slots = slots.copy() }
        if !isKnownUniquelyReferenced(&bytes) { bytes = bytes.copy() }
        let id = KeyID(count)
        let offset = bytes.append(key)
        starts.append(bytes.count)
        let signature = KeySlots.signature(length: key.count, hash: hash)
        slots.store(slot, id: id, signature: signature, offset: offset, count: key.count)
        // Linear probing stays short below 60 % load.
        if count * 5 > slots.capacity * 3 { grow() }
        return id
    }

    /// Returns the id of the key of `count` bytes (at most ``KeyQueue/inlineBytes``) held in `words` followed by
    /// zeros, whose ``hash(_:)`` is `hash`, adding it when new: ``KeyQueue``'s lookup, comparing whole words.
    @inline(__always)
    package mutating func intern(words: UnsafePointer<UInt64>, count: Int, hash: Int) -> KeyID {
        let (slot, found) = probe(hash: hash, count: count) {
            sameKey(at: slots.location($0), words: words, count: count)
        }
        if found { return id(at: slot) }
        return insert(UnsafeRawBufferPointer(start: words, count: count), hash: hash, at: slot)
    }

    /// Follows the slots a key of `count` bytes and hash `hash` may be in, from the first: returns the first
    /// whose signature is the key's and for which `matches` is true, or (`found` false) the empty slot where the
    /// key would go.
    @inline(__always)
    private func probe(hash: Int, count: Int, _ matches: (Int) -> Bool) -> (slot: Int, found: Bool) {
        let signature = KeySlots.signature(length: count, hash: hash)
        let mask = slots.mask
        var slot = hash & mask
        while true {
            let header = slots.header(slot)
            if header == 0 { return (slot, false) }
            if header &>> 32 == signature && matches(slot) { return (slot, true) }
            slot = (slot &+ 1) & mask
        }
    }

    /// The id of the key in `slot`.
    @inline(__always) private func id(at slot: Int) -> KeyID {
        KeyID(truncatingIfNeeded: Int(slots.header(slot) & 0xFFFF_FFFF) &- 1)
    }

    /// Whether the key at `location` in ``bytes`` is the `count` bytes held in `words` followed by zeros: word by
    /// word, the last one's bytes past the key masked off (``KeyBytes`` always extends past them).
    @inline(__always)
    private func sameKey(at location: (offset: Int, count: Int), words: UnsafePointer<UInt64>, count: Int) -> Bool {
        guard location.count == count else { return false }
        let at = bytes.base + location.offset
        let whole = count &>> 3
        var w = 0
        while w < whole {
            if at.loadUnaligned(fromByteOffset: w &<< 3, as: UInt64.self) != words[w] { return false }
            w &+= 1
        }
        let rest = count & 7
        guard rest != 0 else { return true }
        let last = UInt64(littleEndian: at.loadUnaligned(fromByteOffset: whole &<< 3, as: UInt64.self))
        return last & ((1 &<< UInt64(rest &<< 3)) &- 1) == UInt64(littleEndian: words[whole])
    }

    /// Asks the CPU to load the slot where a key of hash `hash` is looked up first, so that ``intern(_:hash:)``
    /// finds it in the cache (see ``KeyQueue``).
    @inline(__always) package func prefetch(hash: Int) {
        fanout_prefetch(slots.base + (hash & slots.mask) &* KeySlots.slotSize)
    }

    /// Asks the CPU to load the bytes of the first key whose slot matches the signature of a key of `count`
    /// bytes and hash `hash` (most often that key itself): ``KeyQueue``'s second prefetch, once the slots it
    /// looks at have arrived from its first.
    @inline(__always) package func prefetchBytes(hash: Int, count: Int) {
        let (slot, found) = probe(hash: hash, count: count) { _ in true }
        guard found else { return }
        let at = bytes.base + slots.location(slot).offset
        fanout_prefetch(at)
        fanout_prefetch(at + (count &- 1))
    }

    /// Returns the id of `key`, adding it when new.
    package mutating func intern(_ key: String) -> KeyID {
        var key = key
        return key.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// Returns the id of `key` if it was interned.
    package func lookup(_ key: String) -> KeyID? {
        var key = key
        return key.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            return find(bytes, hash: Self.hash(bytes)).0
        }
    }

    /// Returns the id of the key whose bytes are `bytes` if it was interned: another table's key looked up here
    /// without making a `String` (`fanout diff` maps one export's keys to the other's).
    package func lookup(_ bytes: UnsafeRawBufferPointer) -> KeyID? { find(bytes, hash: Self.hash(bytes)).0 }

    /// The key's text.
    package func string(_ id: KeyID) -> String {
        withBytes(id) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the key's bytes, without making a `String`.
    package func withBytes<T>(_ id: KeyID, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let start = starts[Int(id)], end = starts[Int(id) + 1]
        return try body(UnsafeRawBufferPointer(start: bytes.base + start, count: end - start))
    }

    /// Orders two keys by their UTF-8 bytes, the order Firebase uses for keys that are not integers.
    package func precedes(_ a: KeyID, _ b: KeyID) -> Bool {
        if a == b { return false }
        let sa = starts[Int(a)], ea = starts[Int(a) + 1], sb = starts[Int(b)], eb = starts[Int(b) + 1]
        let n = min(ea - sa, eb - sb)
        let order = n == 0 ? 0 : memcmp(bytes.base + sa, bytes.base + sb, n)
        return order != 0 ? order < 0 : ea - sa < eb - sb
    }

    /// The key's length in bytes.
    package func byteCount(_ id: KeyID) -> Int { starts[Int(id) + 1] - starts[Int(id)] }

    /// The id of `key` if present, and the slot where it is or would go.
    private func find(_ key: UnsafeRawBufferPointer, hash: Int) -> (KeyID?, Int) {
        let (slot, found) = probe(hash: hash, count: key.count) {
            let location = slots.location($0)
            return location.count == key.count
                && (key.count == 0 || memcmp(bytes.base + location.offset, key.baseAddress!, key.count) == 0)
        }
        return (found ? id(at: slot) : nil, slot)
    }

    private mutating func grow() {
        let fresh = KeySlots(capacity: slots.capacity * 2)
        for id in 0..<count {
            let start = starts[id], end = starts[id + 1]
            let hash = Self.hash(UnsafeRawBufferPointer(start: bytes.base + start, count: end - start))
            var slot = hash & fresh.mask
            while fresh.header(slot) != 0 { slot = (slot &+ 1) & fresh.mask }
            fresh.store(
                slot, id: KeyID(id), signature: KeySlots.signature(length: end - start, hash: hash), offset: start,
                count: end - start)
        }
        slots = fresh
    }

    /// A fast 64-bit hash of short keys: eight bytes at a time, mixed by multiplication; the last word holds
    /// the bytes after the last whole one, followed by zeros (see ``hash(_:copyingInto:)``).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var h = hashSeed ^ UInt64(bytes.count)
        let whole = bytes.count &>> 3
        var i = 0
        while i < whole {
            h = mix(h, bytes.loadUnaligned(fromByteOffset: i &<< 3, as: UInt64.self))
            i &+= 1
        }
        return finish(h, tail: tailWord(bytes))
    }

    /// The ``hash(_:)`` of `bytes`, which are at most ``KeyQueue/inlineBytes`` long, copied into `words` on the
    /// way: whole words, then the rest followed by zeros (the form ``intern(words:count:hash:)`` compares).
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, copyingInto words: UnsafeMutablePointer<UInt64>) -> Int {
        var h = hashSeed ^ UInt64(bytes.count)
        let whole = bytes.count &>> 3
        var i = 0
        while i < whole {
            let word = bytes.loadUnaligned(fromByteOffset: i &<< 3, as: UInt64.self)
            words[i] = word
            h = mix(h, word)
            i &+= 1
        }
        let tail = tailWord(bytes)
        if bytes.count & 7 != 0 { words[whole] = tail.littleEndian }
        return finish(h, tail: tail)
    }

    private static let hashSeed: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inline(__always) private static func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let m = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
        return m ^ (m &>> 31)
    }

    @inline(__always) private static func finish(_ h: UInt64, tail: UInt64) -> Int {
        var h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h &>> 29
        return Int(truncatingIfNeeded: h & 0x7FFF_FFFF_FFFF_FFFF)
    }

    /// The bytes after the last whole word of `bytes`, byte `i` of them in bits `8i ..< 8i + 8` of a word with
    /// zeros above; 0 when there are none.
    @inline(__always) private static func tailWord(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let rest = bytes.count & 7
        guard rest != 0 else { return 0 }
        if bytes.count >= 8 {
            // The last eight bytes in one load, shifted down past the ones already in whole words.
            let last = bytes.loadUnaligned(fromByteOffset: bytes.count &- 8, as: UInt64.self)
            return UInt64(littleEndian: last) &>> UInt64((8 &- rest) &<< 3)
        }
        var tail: UInt64 = 0
        var i = 0
        while i < rest {
            tail |= UInt64(bytes[i]) &<< UInt64(i &<< 3)
            i &+= 1
        }
        return tail
    }
}
