/// Growable memory that holds the unescaped bytes of the last string that had escapes.
///
/// A class so that the returned pointers stay put while the reader struct is moved; shared by copies of a reader.
final class ScratchBuffer {
    /// Start of the buffer.
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    /// Bytes available at `pointer`.
    private(set) var capacity: Int

    init() {
        capacity = 256
        pointer = .allocate(capacity: 256)
    }

    deinit {
        pointer.deallocate()
    }

    /// Returns a buffer of at least `count` bytes; previous contents are not kept.
    func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > capacity {
            pointer.deallocate()
            capacity = max(count, capacity &* 2)
            pointer = .allocate(capacity: capacity)
        }
        return pointer
    }
}
