#if canImport(Glibc)
    import Glibc
#endif

/// Large memory the read fills from its start, in 2 MB pages.
///
/// The read writes hundreds of megabytes of fresh memory (facts, tickets, key bytes), and each 4 KB page of it is a
/// page fault the kernel serves, costly on a virtual machine; a 2 MB page is one fault for 512 of them
/// (docs/performance.md "The read phase beside JSON parsers"). Only whole 2 MB pages inside the region are advised, so
/// a page the region shares with other memory is left alone; a page is still given to the process only when first
/// written.
enum HugePages {
    static let size = 2 << 20

    /// Advises the 2 MB pages within `bytes` bytes at `base` (Linux; elsewhere nothing).
    static func advise(_ base: UnsafeMutableRawPointer?, bytes: Int) {
        #if canImport(Glibc)
            guard let base, bytes >= 2 * size else { return }
            let start = (Int(bitPattern: base) + size - 1) & ~(size - 1)
            let end = (Int(bitPattern: base) + bytes) & ~(size - 1)
            guard end > start, let from = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(from, end - start, MADV_HUGEPAGE)
        #endif
    }

    /// Advises the pages of `array`'s storage, all of its capacity.
    static func advise<Element>(_ array: inout [Element]) {
        let bytes = array.capacity * MemoryLayout<Element>.stride
        array.withUnsafeMutableBufferPointer { advise(UnsafeMutableRawPointer($0.baseAddress), bytes: bytes) }
    }
}
