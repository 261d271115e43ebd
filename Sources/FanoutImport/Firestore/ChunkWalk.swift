import Dispatch
import FanoutJSON
import Synchronization

/// One run of a Firestore export's records (the whole export, or one of its halves) read a chunk at a time and
/// walked as it is read, on a thread of its own, into a walker of its own: a chunk is walked right after it is
/// made, while its tree is still in the cache, and no thread waits for another until the end.
///
/// The checks that need every record are made per run and then across them (``ChunkWalk/run(_:source:files:progress:)``):
/// once a run holds a damaged record, it walks no more and the runs after it stop; the runs before it are read on,
/// without being walked, since a damaged record in them comes first in the files.
final class ChunkWalk<Sink: FactSink>: @unchecked Sendable {
    private var chunker: DocumentChunker
    /// The walker, which walks this run's chunks at positions from `base` on.
    var walker: TreeWalker<Sink>
    private(set) var base: Int
    private(set) var paths: DocumentPathSet
    /// The first path of this run stored twice, in the tree's order.
    private(set) var duplicate: [String]?
    private(set) var error: InputError?
    private(set) var collections: Set<String> = []
    private(set) var walkedAny = false
    /// The bytes of this run's records read so far.
    let consumed = Atomic<Int>(0)
    private let index: Int
    private let failures: Failures

    /// Where an export read in two halves is cut, as a fraction of its bytes: before the middle, because the
    /// collections that sort first in a social app's export (followers, following, likes: a small document every
    /// few dozen bytes) cost more per byte than the posts and timelines after them; on the reference export the
    /// halves' threads then finish together.
    static var cut: Double { 0.45 }

    /// The lowest index of a run that failed, shared by the runs of one read (`Int.max`: none).
    final class Failures: Sendable {
        let first = Atomic<Int>(Int.max)

        func record(_ run: Int) {
            var current = first.load(ordering: .relaxed)
            while run < current {
                let (exchanged, found) = first.compareExchange(
                    expected: current, desired: run, ordering: .relaxed)
                if exchanged { break }
                current = found
            }
        }
    }

    private init(
        _ chunker: DocumentChunker, walker: TreeWalker<Sink>, base: Int, paths: DocumentPathSet, index: Int,
        failures: Failures
    ) {
        self.chunker = chunker
        self.walker = walker
        self.base = base
        self.paths = paths
        self.index = index
        self.failures = failures
    }

    /// Reads and walks `runs` (each a run of records with its walker and the position its facts start at), all
    /// but the first on threads of their own, calling `progress` with the bytes read in all of them after each of
    /// the first run's chunks. Returns the runs, whose walkers hold their facts; throws the first run's error,
    /// else the path stored twice first in the tree's order.
    static func run(
        _ runs: [(chunker: DocumentChunker, walker: TreeWalker<Sink>, base: Int)], source: String, files: [String],
        progress: ((_ read: Int) -> Void)?
    ) throws(InputError) -> [ChunkWalk] {
        let failures = Failures()
        let walks = runs.enumerated().map { index, run in
            ChunkWalk(
                run.chunker, walker: run.walker, base: run.base,
                paths: DocumentPathSet(files: files, source: source), index: index, failures: failures)
        }
        let others = DispatchGroup()
        for walk in walks.dropFirst() {
            DispatchQueue.global().async(group: others) { walk.read(source: source, progress: nil) }
        }
        walks[0].read(source: source) { _ in progress?(walks.reduce(0) { $0 + $1.consumed.load(ordering: .relaxed) }) }
        others.wait()
        if let failed = walks.first(where: { $0.error != nil }), let error = failed.error { throw error }
        var duplicate = walks.compactMap(\.duplicate).min(by: DocumentJSON.precedes)
        for later in walks.dropFirst() {
            if let path = try walks[0].paths.insert(contentsOf: later.paths),
                duplicate.map({ DocumentJSON.precedes(path, $0) }) ?? true
            {
                duplicate = path
            }
        }
        if let duplicate {
            throw InputError.layout(
                source: source, message: "the document \(duplicate.joined(separator: "/")) is stored twice")
        }
        return walks
    }

    /// Reads this run's chunks to the end (or until an earlier run failed), walking each while no run failed and
    /// no path was stored twice.
    private func read(source: String, progress: ((Int) -> Void)?) {
        while failures.first.load(ordering: .relaxed) > index, let chunk = chunker.next() {
            consumed.store(chunk.consumed, ordering: .relaxed)
            collections.formUnion(chunk.collections)
            do throws(InputError) {
                for (hash, place) in chunk.paths {
                    if let path = try paths.insert(hash: hash, place: place),
                        duplicate.map({ DocumentJSON.precedes(path, $0) }) ?? true
                    {
                        duplicate = path
                    }
                }
                if let error = chunk.error { throw error }
                if duplicate == nil, failures.first.load(ordering: .relaxed) == Int.max {
                    try walk(chunk.tree, source: source)
                }
                chunker.recycle(chunk)
            } catch {
                self.error = error
                failures.record(index)
                return
            }
            progress?(chunk.consumed)
        }
    }

    /// Walks `tree` at position `base`, which then moves past it.
    func walk(_ tree: [UInt8], source: String) throws(InputError) {
        let start = base
        let run = tree.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try walker.run(buffer, positionBase: start) }
        }
        do throws(JSONSyntaxError) {
            try run.get()
        } catch {
            throw InputError.syntax(source: source, error)
        }
        base += tree.count
        walkedAny = true
    }
}
