/// Consecutive records of a Firestore export as a tree of their own (``DocumentFragments/tree()``), with what the
/// reader needs of each document beyond it: its path's hash and where its record is, to find a path stored twice
/// across chunks, and the collections it opens. Made on one thread and walked on another, then dropped.
final class DocumentChunk: @unchecked Sendable {
    /// The tree; empty when the chunk holds one path twice (the reader then reports the duplicate) or failed.
    var tree: [UInt8] = []
    /// Per document, ``DocumentPathSet/hash(_:)`` of its path and its record's place (``DocumentPathSet/place``).
    var paths: [(hash: Int, place: Int)] = []
    /// The documents' top-level collections.
    var collections: Set<String> = []
    /// The bytes of its run of records read up to its end (for progress).
    var consumed = 0
    /// Why the records could not be read: the chunk holds the documents before the damaged record.
    var error: InputError?
}

/// Cuts the documents of a Firestore export, or of a part of it, into chunks of consecutive records.
struct DocumentChunker {
    private var records: FirestoreRecords
    private var finished = false
    /// Records of this many bytes of an `output-N` file make a chunk by default (a tree of a few megabytes).
    static let chunkBytes = 4 << 20
    private let chunkBytes: Int
    /// The last chunk's documents and a tree given back (``recycle(_:)``), whose storage the next chunk reuses:
    /// fresh megabytes for every chunk cost more in zeroed pages than in writing them.
    private var fragments = DocumentFragments()
    private var spareTree: [UInt8] = []

    init(_ records: FirestoreRecords, chunkBytes: Int = Self.chunkBytes) {
        self.records = records
        self.chunkBytes = chunkBytes
    }

    /// The next chunk; nil after the last, or after a chunk with an error.
    mutating func next() -> DocumentChunk? {
        guard !finished else { return nil }
        let chunk = DocumentChunk()
        fragments.removeAll()
        var start = (file: 0, offset: 0)
        do throws(InputError) {
            while let (file, offset) = try records.next(into: &fragments) {
                let document = fragments.count - 1
                if document == 0 { start = (file, offset) }
                chunk.paths.append((fragments.pathHash(document), DocumentPathSet.place(file: file, offset: offset)))
                if document == 0 || !fragments.sameCollection(document - 1, document) {
                    chunk.collections.insert(fragments.collection(document))
                }
                if file != start.file || offset - start.offset >= chunkBytes { break }
            }
        } catch {
            chunk.error = error
        }
        if fragments.count == 0, chunk.error == nil {
            finished = true
            return nil
        }
        if chunk.error != nil { finished = true }
        chunk.consumed = records.consumed - records.start
        swap(&chunk.tree, &spareTree)
        do {
            try fragments.tree(into: &chunk.tree)
        } catch {
            chunk.tree.removeAll(keepingCapacity: true)
        }
        return chunk
    }

    /// Takes back a walked chunk's tree, for the next chunk to write into.
    mutating func recycle(_ chunk: DocumentChunk) {
        swap(&chunk.tree, &spareTree)
    }
}
