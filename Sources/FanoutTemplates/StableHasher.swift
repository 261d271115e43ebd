/// A 64-bit hash that is the same in every run, process and platform, unlike Swift's `Hasher`, which is seeded
/// anew in each process: what a build keeps in its manifest must mean the same to the next build.
///
/// Bytes are hashed 16 at a time, each step folding the 128-bit product of two words (the mixing of wyhash), so
/// hashing a 35 KB page costs about as much as copying it. The streaming form (``combine(_:)-(UInt64)``) feeds
/// words and strings one after the other; every string and list goes in with its length, so that `["ab"]` and
/// `["a", "b"]` hash differently. Change detection, not cryptography: nothing here resists a chosen collision.
package struct StableHasher {
    private var state: UInt64
    private var words: UInt64 = 0

    package init() { state = Self.seed }

    /// Feeds one word.
    package mutating func combine(_ word: UInt64) {
        state = Self.fold(word ^ Self.p1, state ^ Self.p2) ^ state
        words &+= 1
    }

    package mutating func combine(_ value: Int) { combine(UInt64(bitPattern: Int64(value))) }

    package mutating func combine(_ value: Bool) { combine(value ? 1 as UInt64 : 2) }

    /// Feeds a string's bytes and its length.
    package mutating func combine(_ string: String) {
        var string = string
        combine(string.withUTF8 { Self.hash($0) })
    }

    /// The hash of everything fed so far.
    package func finalize() -> UInt64 { Self.fold(state ^ Self.p2, words ^ Self.p1) }

    /// The hash of `bytes` (their length included): a page's content hash.
    package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var h = seed ^ UInt64(count)
        guard let base = bytes.baseAddress else { return fold(h ^ p1, p2) }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 16 <= count {
            let a = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let b = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            h = fold(a ^ p1, b ^ h) ^ h
            offset += 16
        }
        var a: UInt64 = 0
        var b: UInt64 = 0
        for i in 0..<(count - offset) {
            let byte = UInt64(bytes[offset + i])
            if i < 8 { a |= byte << (8 * UInt64(i)) } else { b |= byte << (8 * UInt64(i - 8)) }
        }
        h = fold(a ^ p1, b ^ h) ^ h
        return fold(h ^ p2, UInt64(count) ^ p1)
    }

    /// The hash of `text`'s UTF-8 bytes.
    package static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash($0) }
    }

    private static let seed: UInt64 = 0x243F_6A88_85A3_08D3
    private static let p1: UInt64 = 0xA076_1D64_78BD_642F
    private static let p2: UInt64 = 0xE703_7ED1_A0B4_28DB

    /// The two halves of `a × b`, xor-ed.
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }
}

extension StableHasher {
    /// An optional string: absent, or the string.
    package mutating func combine(optional text: String?) {
        if let text { combine(Tag.string); combine(text) } else { combine(Tag.absent) }
    }

    /// What each kind of value a template is given goes into a hash behind, so that `1` and `"1"` differ.
    package enum Tag {
        package static let string: UInt64 = 0x5354_5249_4E47
        package static let integer: UInt64 = 0x494E_54
        package static let boolean: UInt64 = 0x424F_4F4C
        package static let double: UInt64 = 0x444F_55
        package static let dictionary: UInt64 = 0x4449_4354
        package static let list: UInt64 = 0x4C49_5354
        package static let custom: UInt64 = 0x4355_5354
        package static let absent: UInt64 = 0x4E4F_4E45
    }
}
