#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of every key of a ``KeyTable``, one after another, in memory that always extends at least eight
/// bytes past the last key: the table compares keys a word at a time, and the last word of the last key may
/// reach past its end (the bytes there are masked off).
final class KeyBytes: @unchecked Sendable {
    private(set) var base: UnsafeMutableRawPointer
    /// The bytes in use.
    private(set) var count = 0
    private var capacity: Int

    /// How far past the last key the memory extends, at least.
    static let slack = 8

    init(capacity: Int = 1024) {
        self.capacity = max(capacity, Self.slack)
        base = Self.reallocate(nil, to: self.capacity)
        base.storeBytes(of: 0, as: UInt64.self)
    }

    deinit { free(base) }

    /// A copy, for copy-on-write.
    func copy() -> KeyBytes {
        let fresh = KeyBytes(capacity: capacity)
        fresh.base.copyMemory(from: base, byteCount: count)
        fresh.count = count
        return fresh
    }

    /// Makes room for `bytes` bytes of keys in all. Large blocks are in 2 MB pages (``HugePages``).
    func reserve(_ bytes: Int) {
        guard bytes + Self.slack > capacity else { return }
        capacity = bytes + Self.slack
        base = Self.reallocate(base, to: capacity)
        HugePages.advise(base, bytes: capacity)
    }

    /// Appends `key`; returns where its bytes start.
    func append(_ key: UnsafeRawBufferPointer) -> Int {
        let offset = count
        if offset + key.count + Self.slack > capacity { reserve(max(capacity * 2, offset + key.count)) }
        if key.count > 0 { (base + offset).copyMemory(from: key.baseAddress!, byteCount: key.count) }
        count += key.count
        // The slack holds zeros rather than whatever the allocator left there.
        (base + count).storeBytes(of: 0, as: UInt64.self)
        return offset
    }

    /// `realloc` moves a large block by remapping its pages rather than copying them.
    private static func reallocate(_ pointer: UnsafeMutableRawPointer?, to bytes: Int) -> UnsafeMutableRawPointer {
        guard let moved = realloc(pointer, bytes) else { fatalError("out of memory for keys") }
        return moved
    }
}
