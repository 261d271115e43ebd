import Dispatch
import Synchronization

/// Chunks handed from the thread that makes them to the one that walks them, at most `capacity` waiting, so that
/// the maker stays a few chunks ahead and memory holds only those. Nil ends the stream.
final class ChunkChannel: @unchecked Sendable {
    private let free: DispatchSemaphore
    private let filled = DispatchSemaphore(value: 0)
    private let items = Mutex<[DocumentChunk?]>([])
    private let stopped = Atomic<Bool>(false)

    init(capacity: Int) { free = DispatchSemaphore(value: capacity) }

    /// Makes `chunker`'s chunks into the channel until it has no more or the reader stops, then ends the stream.
    func fill(_ chunker: consuming DocumentChunker) {
        while !stopped.load(ordering: .relaxed), let chunk = chunker.next() { put(chunk) }
        put(nil)
    }

    private func put(_ chunk: DocumentChunk?) {
        free.wait()
        items.withLock { $0.append(chunk) }
        filled.signal()
    }

    /// The next chunk, waiting for it; nil at the end of the stream.
    func take() -> DocumentChunk? {
        filled.wait()
        let chunk = items.withLock { $0.removeFirst() }
        free.signal()
        return chunk
    }

    /// Tells the maker to make no more chunks: the reader drains what it already made (``take()`` to nil).
    func stop() { stopped.store(true, ordering: .relaxed) }
}
