import Dispatch
import FanoutCore
import FanoutJSON

extension ExportLoader {
    /// Walks the Firestore export at `path` a chunk of records at a time, and then an emulator folder's Realtime
    /// Database files each as the tree it is, into one walker: no tree of the whole export is ever built.
    ///
    /// Each chunk is the tree of its documents (``DocumentChunker``), read at its own position base after the
    /// previous chunk's. Each document's facts come from its own path and fields, so any partition of the documents
    /// into trees reads every fact once. An export large enough is read as two halves of its bytes (each record in
    /// the half its first header is in, as `--part` cuts it, near the middle: ``ChunkWalk/cut``), each made into
    /// chunks and walked by a thread and a
    /// walker of its own (``ChunkWalk``), the second's facts then appended to the first's as a split JSON read's
    /// are. Errors are those of reading the records in order: the first damaged record's, else a path
    /// stored twice, naming the first such path in the tree's order, as the whole tree's is. `chunkBytes` and
    /// `halvesFrom` (the export's size from which it is read in halves) are for tests.
    static func walkFirestore<Sink: FactSink>(
        path: String, schema: Schema, foreignKeys: [String: String], part: ExportPart? = nil, positionBase: Int = 0,
        progress: ((_ read: Int, _ total: Int) -> Void)? = nil, warn: ((String) -> Void)?,
        chunkBytes: Int = DocumentChunker.chunkBytes, halvesFrom: Int = SplitRead.minimumBytes,
        sink makeSink: (Schema) -> Sink
    ) throws(InputError) -> Sink {
        guard schema.format == .firebase || part != nil else {
            throw InputError.layout(
                source: path,
                message:
                    "the \(schema.name) schema reads a Parse export, a folder or .zip of class files, not one JSON document"
            )
        }
        var walker = try TreeWalker(schema: schema, sink: makeSink(schema))
        walker.watchedRootKeys = foreignKeys.keys.sorted()
        var base = positionBase
        var collections: Set<String> = []
        if let files = try FirestoreExport.locate(path) {
            let whole = FirestoreRecords(files: files, part: part.map { ($0.index, $0.count) })
            let halves =
                part == nil && whole.total >= halvesFrom
                ? [true, false].map { FirestoreRecords(files: files, cutAt: ChunkWalk<Sink>.cut, first: $0) } : [whole]
            var runs = [(chunker: DocumentChunker, walker: TreeWalker<Sink>, base: Int)]()
            for (n, records) in halves.enumerated() {
                var runWalker = n == 0 ? walker : try TreeWalker(schema: schema, sink: makeSink(schema))
                runWalker.watchedRootKeys = walker.watchedRootKeys
                // The second half's facts come after the first's: its positions start past any tree of its size.
                runs.append((DocumentChunker(records, chunkBytes: chunkBytes), runWalker, base + n << 43))
            }
            let walks = try ChunkWalk.run(runs, source: path, files: files) { progress?($0, whole.total) }
            // An export with no document reads as the empty tree.
            if !walks.contains(where: \.walkedAny) { try walks[0].walk(Array("{}".utf8), source: path) }
            walker = walks[0].walker
            for later in walks.dropFirst() {
                walker.append(&later.walker)
                collections.formUnion(later.collections)
            }
            collections.formUnion(walks[0].collections)
            base = walks.map(\.base).max() ?? base
        }
        var rootKeys = collections.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if part == nil {
            for file in try FirestoreExport.databaseFiles(path) {
                let bytes = try ExportBytes(path: file)
                rootKeys += try databaseKeys(bytes)
                walker.releasesConsumedPages = bytes.isMapped
                let run = Result { () throws(JSONSyntaxError) in try walker.run(bytes.buffer, positionBase: base) }
                do throws(JSONSyntaxError) {
                    try run.get()
                } catch {
                    throw InputError.syntax(source: file, error)
                }
                base += bytes.count
            }
        }
        guard walker.matchedRootKeys > 0 || part != nil else {
            let found = LayoutDetector.foundKeys(Array(rootKeys.prefix(50)), total: rootKeys.count)
            throw InputError.layout(
                source: path,
                message:
                    "not \(LayoutDetector.article(schema.name)) \(schema.name) export: \(found); expected \(expected(schema))"
            )
        }
        if !walker.seenWatchedKeys.isEmpty {
            throw LayoutDetector.mixed(path, chosen: schema, seen: walker.seenWatchedKeys, foreignKeys: foreignKeys)
        }
        if part == nil {
            try RelationMatches(schema: schema, counts: walker.matches, declaredCounts: walker.declaredMatches).check(
                source: path,
                found: LayoutDetector.foundKeys(
                    Array(rootKeys.prefix(50)), total: rootKeys.count, subject: "the export's"),
                warn: warn)
        }
        return walker.sink
    }

    /// The top-level keys of a Realtime Database file, which must be one object (checked whole, before it is
    /// walked, as a JSON export's syntax is).
    static func databaseKeys(_ bytes: ExportBytes) throws(InputError) -> [String] {
        var reader = JSONReader(bytes.buffer)
        var keys: [String] = []
        var isObject = false
        do throws(JSONSyntaxError) {
            isObject = try reader.peekKind() == .object
            if isObject {
                try reader.beginObject()
                while let key = try reader.nextKeyString() {
                    keys.append(key)
                    try reader.skipValue()
                }
            } else {
                try reader.skipValue()
            }
            try reader.finish()
        } catch {
            throw InputError.syntax(source: bytes.source, error)
        }
        guard isObject else {
            throw InputError.layout(
                source: bytes.source, message: "not a Realtime Database export: its top level is not an object")
        }
        return keys
    }
}
