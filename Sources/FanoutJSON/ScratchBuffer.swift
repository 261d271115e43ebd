/// Growable memory that holds the unescaped bytes of the last string that had escapes.
///
/// A class around a ``ByteBuffer`` so that the returned pointers stay put while the reader struct is moved; shared
/// by copies of a reader.
final class ScratchBuffer {
    private var buffer = ByteBuffer(capacity: 256)

    /// Returns a buffer of at least `count` bytes; previous contents are not kept.
    func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        buffer.removeAll()
        buffer.reserve(count)
        return buffer.base.assumingMemoryBound(to: UInt8.self)
    }
}
