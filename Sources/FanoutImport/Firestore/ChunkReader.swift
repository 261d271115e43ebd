import Dispatch

/// The chunks of one or more runs of a Firestore export's records (the whole export, or its halves, each made on a
/// thread of its own), taken by turns, with the checks that need every record: a damaged record and a path stored
/// twice (``DocumentPathSet``).
///
/// Once a run holds a damaged record, nothing more is walked, and the runs after it are stopped; the runs before it
/// are read on, without being walked, since a damaged record in them comes first in the files. After the last chunk,
/// ``next()`` throws the first run's error, else the duplicate path first in the tree's order.
struct ChunkReader {
    private var inline: DocumentChunker?
    private var channels: [ChunkChannel] = []
    private let makers = DispatchGroup()
    /// The runs not yet read to their end, and whose turn it is.
    private var active: [Int]
    private var turn = 0
    private var paths: DocumentPathSet
    private var failure: (run: Int, error: InputError)?
    private var duplicate: [String]?
    /// Per run, the bytes of it read so far.
    private var read: [Int]

    /// Reads `chunkers`' chunks of the export at `source` (for messages): a single one on this thread, more each on a thread of its own.
    init(_ chunkers: [DocumentChunker], files: [String], source: String) {
        paths = DocumentPathSet(files: files, source: source)
        active = Array(chunkers.indices)
        read = Array(repeating: 0, count: chunkers.count)
        guard chunkers.count > 1 else {
            inline = chunkers.first
            return
        }
        for chunker in chunkers {
            let channel = ChunkChannel(capacity: 2)
            channels.append(channel)
            nonisolated(unsafe) let made = chunker
            DispatchQueue.global().async(group: makers) { channel.fill(made) }
        }
    }

    /// The bytes of the records read so far, in all runs.
    var consumed: Int { read.reduce(0, +) }

    /// The next chunk to walk; nil once every run was read. Throws the reading's error (see the type's summary).
    mutating func next() throws(InputError) -> DocumentChunk? {
        while !active.isEmpty {
            let slot = turn % active.count
            let run = active[slot]
            guard let chunk = take(run) else {
                active.remove(at: slot)
                continue
            }
            turn += 1
            read[run] = chunk.consumed
            if let error = chunk.error, failure.map({ run < $0.run }) ?? true {
                failure = (run, error)
                for later in active where later > run { channels[later].stop() }
            }
            for (hash, place) in chunk.paths {
                if let path = try paths.insert(hash: hash, place: place),
                    duplicate.map({ DocumentJSON.precedes(path, $0) }) ?? true
                {
                    duplicate = path
                }
            }
            if failure == nil, duplicate == nil { return chunk }
        }
        if let failure { throw failure.error }
        if let duplicate {
            throw InputError.layout(
                source: paths.source, message: "the document \(duplicate.joined(separator: "/")) is stored twice")
        }
        return nil
    }

    /// Stops the threads that make chunks and waits for them (after an error of the walk, or at the end).
    mutating func finish() {
        for channel in channels { channel.stop() }
        for run in active where !channels.isEmpty {
            while channels[run].take() != nil {}
        }
        active = []
        makers.wait()
    }

    private mutating func take(_ run: Int) -> DocumentChunk? {
        guard channels.isEmpty else { return channels[run].take() }
        return inline?.next()
    }
}
