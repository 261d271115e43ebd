#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives back the pages of a read-only file mapping that a reader has passed, so that resident memory holds what
/// was read from the export rather than the export (a dropped page is simply read again if a reader looks back).
enum MappedPages {
    /// Drops the mapped pages of `buffer` from `start` up to a page before `offset`, in 64 KiB units; returns
    /// where the dropped range ends (the next call's start).
    static func release(_ buffer: UnsafeRawBufferPointer, from start: Int, before offset: Int) -> Int {
        guard let base = buffer.baseAddress else { return start }
        let page = 1 << 16
        let from = (start + page - 1) & ~(page - 1)
        let end = (offset - page) & ~(page - 1)
        guard end > from else { return start }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + from), end - from, MADV_DONTNEED)
        return end
    }
}
