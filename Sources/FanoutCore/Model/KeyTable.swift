/// The interned id of a database key (a uid or a post key): an index into a ``KeyTable``.
public typealias KeyID = Int32

/// Marks "no key" in fields that may be absent, so that facts stay small plain values.
public let noKey: KeyID = -1

/// Interns database keys: every distinct key's bytes are stored once and facts refer to them by ``KeyID``.
///
/// Exports repeat the same few hundred thousand uids and post keys millions of times (every like, follow
/// and timeline entry names two of them), so facts hold 4-byte ids instead of strings. The table keeps the
/// bytes in one arena and finds them with open addressing, which avoids a `String` allocation per lookup
/// when keys come straight from the JSON reader's buffer.
public struct KeyTable: Sendable {
    private var arena: [UInt8] = []
    private var starts: [Int] = [0]
    private var slots: [KeyID]
    private var mask: Int

    /// An empty table.
    public init() {
        slots = Array(repeating: noKey, count: 1024)
        mask = 1023
    }

    /// The number of distinct keys.
    public var count: Int { starts.count - 1 }

    /// Returns the id of `bytes`, adding it when new.
    public mutating func intern(_ bytes: UnsafeRawBufferPointer) -> KeyID {
        let hash = Self.hash(bytes)
        var slot = hash & mask
        while true {
            let id = slots[slot]
            if id == noKey { break }
            if equals(id, bytes) { return id }
            slot = (slot &+ 1) & mask
        }
        let id = KeyID(count)
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        slots[slot] = id
        if count * 2 > slots.count { grow() }
        return id
    }

    /// Returns the id of `key`, adding it when new.
    public mutating func intern(_ key: String) -> KeyID {
        var key = key
        return key.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// Returns the id of `key` if it was interned.
    public func lookup(_ key: String) -> KeyID? {
        var key = key
        return key.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var slot = Self.hash(bytes) & mask
            while true {
                let id = slots[slot]
                if id == noKey { return nil }
                if equals(id, bytes) { return id }
                slot = (slot &+ 1) & mask
            }
        }
    }

    /// The key's text.
    public func string(_ id: KeyID) -> String {
        let range = starts[Int(id)]..<starts[Int(id) + 1]
        return arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Orders two keys by their UTF-8 bytes, the order Firebase uses for keys that are not integers.
    public func precedes(_ a: KeyID, _ b: KeyID) -> Bool {
        if a == b { return false }
        return arena.withUnsafeBufferPointer { buffer in
            let ra = starts[Int(a)]..<starts[Int(a) + 1]
            let rb = starts[Int(b)]..<starts[Int(b) + 1]
            let n = min(ra.count, rb.count)
            for i in 0..<n {
                let x = buffer[ra.lowerBound + i], y = buffer[rb.lowerBound + i]
                if x != y { return x < y }
            }
            return ra.count < rb.count
        }
    }

    /// The key's length in bytes.
    public func byteCount(_ id: KeyID) -> Int { starts[Int(id) + 1] - starts[Int(id)] }

    private func equals(_ id: KeyID, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = starts[Int(id)], end = starts[Int(id) + 1]
        guard end - start == bytes.count else { return false }
        return arena.withUnsafeBufferPointer { buffer in
            var i = 0
            while i < bytes.count {
                if buffer[start + i] != bytes[i] { return false }
                i += 1
            }
            return true
        }
    }

    private mutating func grow() {
        let size = slots.count * 2
        var fresh = Array(repeating: noKey, count: size)
        let newMask = size - 1
        arena.withUnsafeBytes { arenaBytes in
            for id in 0..<count {
                let key = UnsafeRawBufferPointer(rebasing: arenaBytes[starts[id]..<starts[id + 1]])
                var slot = Self.hash(key) & newMask
                while fresh[slot] != noKey { slot = (slot &+ 1) & newMask }
                fresh[slot] = KeyID(id)
            }
        }
        slots = fresh
        mask = newMask
    }

    /// A fast 64-bit hash of short keys: eight bytes at a time, mixed by multiplication.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count {
            tail |= UInt64(bytes[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 29
        return Int(truncatingIfNeeded: h & 0x7FFF_FFFF_FFFF_FFFF)
    }
}
