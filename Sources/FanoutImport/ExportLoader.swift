import FanoutCore
import FanoutJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads exports into the domain core.
public enum ExportLoader {
    /// Reads the export at `path` laid out as `schema`, or as the preset its top-level keys name when `schema`
    /// is nil.
    ///
    /// `path` is a Firebase JSON file (plain or gzip, recognized by its content), `-` for standard input, or a
    /// Parse export: a folder or a `.zip` of class files. Throws ``InputError`` for anything unreadable.
    /// `progress`, when given, is called every few megabytes of a JSON export with the bytes read and the total.
    /// `warn`, when given, is called with each warning about the schema and the export: a relation whose path
    /// matched nothing (`export.json: [likes] path "postLikes/{post}/{user}" matched nothing; …`).
    public static func load(
        path: String, schema: Schema?, progress: ((_ read: Int, _ total: Int) -> Void)? = nil,
        warn: ((String) -> Void)? = nil
    ) throws(InputError) -> Dataset {
        try read(path: path, schema: schema, progress: progress, warn: warn, sink: DatasetSink.init).dataset
    }

    /// Reads the export at `path` as ``load(path:schema:progress:)`` does, handing its facts to the sink that
    /// `makeSink` makes for the schema in use (one per walker; a split read appends the second to the first).
    ///
    /// With `streaming`, memory stays bounded whatever the export's size: the skim of a split read drops the
    /// pages it passed, as the walkers do (see ``TreeWalker/releasesSkimmedPages``). `splitTarget` is for tests
    /// (see ``walk(_:schema:foreignKeys:progress:splitTarget:streaming:sink:)``).
    package static func read<Sink: FactSink>(
        path: String, schema: Schema?, progress: ((_ read: Int, _ total: Int) -> Void)? = nil, streaming: Bool = false,
        splitTarget: Int?? = nil, bytes given: ExportBytes? = nil, warn: ((String) -> Void)? = nil,
        sink makeSink: (Schema) -> Sink
    ) throws(InputError) -> Sink {
        if path != "-", try holdsFirestoreOrEmulatorData(path) {
            if let schema {
                return try walkFirestore(
                    path: path, schema: schema, foreignKeys: [:], progress: progress, warn: warn, sink: makeSink)
            }
            // The layout is told from a sample; the export is then walked a chunk at a time, as with a schema.
            let choice = try LayoutDetector.detect(firestoreTree(path, sampled: LayoutDetector.sampledPosts))
            return try walkFirestore(
                path: path, schema: choice.schema, foreignKeys: choice.foreignKeys, progress: progress, warn: warn,
                sink: makeSink)
        }
        if path != "-", isDirectory(path) {
            return try ParseExport.read(
                folder: path, schema: try parseSchema(schema, path, what: "a folder"), warn: warn, sink: makeSink)
        }
        let bytes: ExportBytes
        if let given { bytes = given } else { bytes = try ExportBytes(path: path, spooling: streaming) }
        if !bytes.wasCompressed, isZip(bytes.buffer) {
            let schema = try parseSchema(schema, bytes.source, what: "a zip archive")
            return try ParseExport.read(
                archive: ParseExport.archive(path: path, bytes: bytes), bytes: bytes, schema: schema, warn: warn,
                sink: makeSink)
        }
        let choice: LayoutDetector.Choice
        if let schema {
            choice = LayoutDetector.Choice(schema: schema, foreignKeys: [:])
        } else {
            choice = try LayoutDetector.detect(bytes)
        }
        return try walk(
            bytes, schema: choice.schema, foreignKeys: choice.foreignKeys, progress: progress, splitTarget: splitTarget,
            streaming: streaming, warn: warn, sink: makeSink)
    }

    /// Reads the export at `path` (a file or `-`, not a folder) from its `bytes`, already read: for a caller
    /// that needs them again afterwards, as ``FindingLocator`` does when they came from standard input.
    package static func load(
        _ bytes: ExportBytes, path: String, schema: Schema?, progress: ((_ read: Int, _ total: Int) -> Void)? = nil,
        warn: ((String) -> Void)? = nil
    ) throws(InputError) -> Dataset {
        try read(path: path, schema: schema, progress: progress, bytes: bytes, warn: warn, sink: DatasetSink.init)
            .dataset
    }

    /// Reads Firebase export `bytes` laid out as `schema`.
    ///
    /// Throws ``InputError/syntax(source:_:)`` for malformed JSON (with line and column) and
    /// ``InputError/layout(source:message:)`` for JSON that is not an export of this layout.
    package static func load(_ bytes: ExportBytes, schema: Schema) throws(InputError) -> Dataset {
        try load(bytes, schema: schema, foreignKeys: [:], progress: nil)
    }

    /// Reads Firebase export `bytes` into a dataset (see ``walk(_:schema:foreignKeys:progress:splitTarget:streaming:sink:)``).
    static func load(
        _ bytes: ExportBytes, schema: Schema, foreignKeys: [String: String], progress: ((Int, Int) -> Void)?,
        warn: ((String) -> Void)? = nil, splitTarget: Int?? = nil
    ) throws(InputError) -> Dataset {
        try walk(
            bytes, schema: schema, foreignKeys: foreignKeys, progress: progress, splitTarget: splitTarget, warn: warn,
            sink: DatasetSink.init
        ).dataset
    }

    /// Walks Firebase export `bytes` laid out as `schema` into sinks made by `makeSink`. `splitTarget`: where a
    /// second walker should take over (see `SplitRead`); by default near the middle of exports large enough to be
    /// worth it, nil to read with one walker.
    static func walk<Sink: FactSink>(
        _ bytes: ExportBytes, schema: Schema, foreignKeys: [String: String], progress: ((Int, Int) -> Void)?,
        splitTarget: Int?? = nil, streaming: Bool = false, warn: ((String) -> Void)? = nil,
        sink makeSink: (Schema) -> Sink
    ) throws(InputError) -> Sink {
        guard schema.format == .firebase else {
            throw InputError.layout(
                source: bytes.source,
                message:
                    "the \(schema.name) schema reads a Parse export, a folder or .zip of class files, not one JSON document"
            )
        }
        var walker = try TreeWalker(schema: schema, sink: makeSink(schema))
        walker.watchedRootKeys = foreignKeys.keys.sorted()
        walker.progress = progress
        walker.releasesConsumedPages = bytes.isMapped
        let count = bytes.buffer.count
        let target =
            splitTarget ?? (count >= SplitRead.minimumBytes ? Int(Double(count) * SplitRead.splitFraction) : nil)
        var second: TreeWalker<Sink>?
        if target != nil {
            second = try TreeWalker(schema: schema, sink: makeSink(schema))
            second?.watchedRootKeys = walker.watchedRootKeys
            second?.releasesConsumedPages = walker.releasesConsumedPages
            second?.releasesSkimmedPages = streaming && bytes.isMapped
        }
        do throws(JSONSyntaxError) {
            if let target, let second {
                // A target the caller chose (tests) is always split at, however late the second thread starts.
                try SplitRead.run(
                    &walker, second: second, buffer: bytes.buffer, target: target,
                    waitForSecondWalker: splitTarget != nil)
            } else {
                try walker.run(bytes.buffer)
            }
        } catch {
            throw InputError.syntax(source: bytes.source, error)
        }
        guard walker.rootWasObject else {
            throw InputError.layout(
                source: bytes.source,
                message: "not a Firebase export: its top level is not an object with keys like \(expected(schema))")
        }
        let found = LayoutDetector.foundKeys(walker.rootKeys, total: walker.rootKeyCount)
        guard walker.matchedRootKeys > 0 else {
            throw InputError.layout(
                source: bytes.source,
                message:
                    "not \(LayoutDetector.article(schema.name)) \(schema.name) export: \(found); expected \(expected(schema))"
            )
        }
        if !walker.seenWatchedKeys.isEmpty {
            throw LayoutDetector.mixed(
                bytes.source, chosen: schema, seen: walker.seenWatchedKeys, foreignKeys: foreignKeys)
        }
        try RelationMatches(schema: schema, counts: walker.matches, declaredCounts: walker.declaredMatches).check(
            source: bytes.source,
            found: LayoutDetector.foundKeys(walker.rootKeys, total: walker.rootKeyCount, subject: "the export's"),
            nearest: { pattern in NearestKeys.stop(of: pattern, in: bytes.buffer)?.described(pattern) },
            firstRow: { pattern in RowShape.first(of: pattern, in: bytes.buffer) }, warn: warn)
        return walker.sink
    }

    /// Whether `path` is a Firestore export or an emulator folder with Realtime Database files.
    static func holdsFirestoreOrEmulatorData(_ path: String) throws(InputError) -> Bool {
        if try FirestoreExport.locate(path) != nil { return true }
        return try !FirestoreExport.databaseFiles(path).isEmpty
    }

    /// The Firestore export at `path` as the JSON tree schema files describe (see ``DocumentJSON/tree(_:)``), with
    /// an emulator folder's Realtime Database files beside its collections, so that one schema and one run audit
    /// both databases. With `sampled`, a sample for detection: the first `sampled` documents of each top-level
    /// collection and one of each subcollection (`posts/*/comments`), the records decoded one at a time and only
    /// the sample kept.
    static func firestoreTree(_ path: String, sampled: Int? = nil) throws(InputError) -> ExportBytes {
        var parts: [[UInt8]] = []
        if let files = try FirestoreExport.locate(path) {
            var records = FirestoreRecords(files: files, part: nil)
            var kept: [FirestoreDocument] = []
            var perCollection: [[String]: Int] = [:]
            while let document = try records.next() {
                if let sampled {
                    // `posts/*/comments`: the collection's names without the documents' IDs.
                    let shape = document.segments.indices.filter { $0 % 2 == 0 }.map { document.segments[$0] }
                    guard perCollection[shape, default: 0] < (shape.count == 1 ? sampled : 1) else { continue }
                    perCollection[shape, default: 0] += 1
                }
                kept.append(document)
            }
            do {
                parts.append(try DocumentJSON.tree(kept))
            } catch {
                throw InputError.layout(source: path, message: "the document \(error.path) is stored twice")
            }
        }
        for file in try FirestoreExport.databaseFiles(path) {
            let bytes = try ExportBytes(path: file)
            var reader = JSONReader(bytes.buffer)
            let isObject: Bool
            do throws(JSONSyntaxError) {
                isObject = try reader.peekKind() == .object
                try reader.skipValue()
                try reader.finish()
            } catch {
                throw InputError.syntax(source: file, error)
            }
            guard isObject else {
                throw InputError.layout(
                    source: file, message: "not a Realtime Database export: its top level is not an object")
            }
            parts.append(Array(bytes.buffer))
        }
        return ExportBytes(bytes: mergedObjects(parts), source: path)
    }

    /// JSON objects' members in one object, in order (each part an object, already checked).
    private static func mergedObjects(_ parts: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for part in parts {
            guard let open = part.firstIndex(of: UInt8(ascii: "{")), let close = part.lastIndex(of: UInt8(ascii: "}"))
            else { continue }
            let inner = part[(open + 1)..<close]
            guard inner.contains(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { continue }
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: inner)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The schema for a Parse export at `source`: the one given, which must be a Parse schema, or the preset.
    private static func parseSchema(_ schema: Schema?, _ source: String, what: String) throws(InputError) -> Schema {
        guard let schema else { return Presets.named("parse")! }
        guard schema.format == .parse else {
            throw InputError.layout(
                source: source,
                message:
                    "\(what) is read as a Parse export, but the \(schema.name) schema reads one Firebase JSON file; "
                    + "omit --schema or use a schema with format = \"parse\"")
        }
        return schema
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `bytes` start like a zip archive (a local file header, or the end record of an empty archive).
    static func isZip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B else { return false }
        return (bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6)
    }

    static func expected(_ schema: Schema) -> String {
        schema.rootKeys.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
