import FanoutCore
import FanoutImport
import FanoutJSON
import FanoutLocked
import FanoutOutput
import Foundation

/// `fanout tables`: streams an export once into newline-delimited JSON tables and their manifest, in memory
/// bounded by a constant (docs/tables.md).
///
/// The export is read by the walker that fills the core for every other command, with a `TableRowSink` in
/// place of the core; large exports are read by two walkers at once (`SplitRead`), each writing its own parts,
/// so reading and writing use both cores. The folder is staged and moved into place only when complete.
public enum TableExport {
    /// How the tables are written.
    public struct Options: Sendable {
        /// Whether parts are gzip-compressed (`part-00000.ndjson.gz`); NDJSON only.
        public var gzip: Bool
        /// The most rows a part file holds; nil for no limit.
        public var rowsPerFile: Int?
        /// The parts' format.
        public var format: Format

        public init(gzip: Bool = false, rowsPerFile: Int? = nil, format: Format = .ndjson) {
            precondition(!(gzip && format == .parquet), "gzip compresses NDJSON parts only")
            self.gzip = gzip
            self.rowsPerFile = rowsPerFile
            self.format = format
        }
    }

    /// The format of the part files: newline-delimited JSON (the default), or Parquet (docs/tables.md "Parquet").
    public enum Format: String, Sendable, CaseIterable {
        case ndjson, parquet
    }

    /// What was written: the rows of each table, in ``Table/allCases`` order.
    public struct Summary: Sendable {
        public var rows: [Int]
        public var schemaName: String
    }

    /// The manifest's format version.
    public static let formatVersion = 1
    /// The manifest's file name in the folder.
    public static let manifestName = "_manifest.json"

    /// Writes the tables of the export at `path` (laid out as `schema`, or detected) into the folder `out`.
    /// Throws `InputError` for an unreadable export and `OutputError` when the folder cannot be written; either
    /// way nothing is left behind and a previous folder at `out` stays as it was. `splitTarget` is for tests: where
    /// a second walker takes over (`.some(nil)`: one walker; nil: near the middle of a large export).
    /// With `part`, reads only that part of the export (``ExportPart``) into `out/part-K-of-N` (K from 1), a tables
    /// folder of its own whose manifest names the part; ``merge(folder:)`` then makes `out` the tables of them all.
    public static func write(
        path: String, schema: Schema?, out: String, options: Options = Options(), part: ExportPart? = nil,
        progress: ((_ read: Int, _ total: Int) -> Void)? = nil, splitTarget: Int?? = nil
    ) throws -> Summary {
        // A part goes in a folder of `out`, which the staged folder creates: a failed first part leaves no `out`.
        let createsOut = part != nil && !FileManager.default.fileExists(atPath: out)
        let staged = try StagedFolder(path: part.map { "\(out)/\(partFolder($0))" } ?? out)
        do {
            let folder = TableFolder(staged, options: options)
            var sink: TableRowSink
            var used: Schema?
            do {
                let makeSink = { (schema: Schema) -> TableRowSink in
                    used = schema
                    // The rows of the schema's own `key-invalid` findings are written once: by the first walker of
                    // the first part.
                    return TableRowSink(
                        schema: schema, output: folder.writer(), rowsPerFile: options.rowsPerFile,
                        writesSchemaRows: folder.writerCount == 1 && (part?.index ?? 0) == 0)
                }
                if let part {
                    sink = try ExportLoader.readRows(
                        path: path, schema: schema, part: part, progress: progress, sink: makeSink)
                } else {
                    sink = try ExportLoader.readRows(
                        path: path, schema: schema, progress: progress, splitTarget: splitTarget, sink: makeSink)
                }
            } catch {
                // A failed output stops the walk; its error is the one to report.
                if let failure = folder.firstFailure { throw failure }
                throw error
            }
            sink.finish()
            if let failure = folder.firstFailure { throw failure }
            let written = try folder.finish(rows: sink.rowCounts)
            let schema = used!
            try staged.write(
                manifest(export: path, schema: schema, options: options, written: written, part: part), to: manifestName
            )
            try staged.commit()
            return Summary(rows: written.map(\.rows), schemaName: schema.name)
        } catch {
            staged.abandon()
            if createsOut { rmdir(out) }
            throw error
        }
    }

    /// `_manifest.json`: the format version, the export, the schema and its relations, and per table its
    /// columns with their types, its row count and its files.
    static func manifest(
        export path: String, schema: Schema, options: Options, written: [(rows: Int, files: [String])],
        part: ExportPart? = nil
    ) -> String {
        var tables: [(key: String, value: JSONValue)] = []
        for (table, (rows, files)) in zip(Table.allCases, written) {
            tables.append(
                (
                    table.name,
                    .object([
                        (
                            "columns",
                            .array(
                                table.columns.map { .object([("name", .string($0.name)), ("type", .string($0.type))]) })
                        ),
                        ("files", .array(files.map(JSONValue.string))),
                        ("rows", .number(JSONNumber(rows))),
                    ])
                ))
        }
        let manifest = JSONValue.object(
            [
                (
                    "export",
                    .object([
                        ("bytes", exportBytes(path).map { .number(JSONNumber($0)) } ?? .null), ("name", .string(path)),
                    ])
                ),
                ("format_version", .number(JSONNumber(formatVersion))),
                (
                    "options",
                    .object([
                        ("format", .string(options.format.rawValue)),
                        ("gzip", .bool(options.gzip)),
                        ("rows_per_file", options.rowsPerFile.map { .number(JSONNumber($0)) } ?? .null),
                    ])
                ),
                // A part's manifest says which part it is (keys stay sorted: `options`, `part`, `schema`).
                (
                    "part",
                    part.map {
                        .object([
                            ("count", .number(JSONNumber($0.count))), ("index", .number(JSONNumber($0.index + 1))),
                        ])
                    } ?? .null
                ),
                ("schema", SchemaDescription.json(schema)),
                ("tables", .object(tables)),
                ("tool", .string("fanout")),
            ].filter { !($0.0 == "part" && $0.1 == .null) })
        return JSONWriter(pretty: true).write(manifest) + "\n"
    }

    /// The size of the export as stored: a file's size, or the sum of a Parse folder's class files; nil for
    /// standard input.
    private static func exportBytes(_ path: String) -> Int? {
        guard path != "-" else { return nil }
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        func size(_ file: String) -> Int {
            ((try? fm.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
        }
        guard isDirectory.boolValue else { return size(path) }
        let files = (try? fm.contentsOfDirectory(atPath: path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.reduce(0) {
            $0 + size((path as NSString).appendingPathComponent($1))
        }
    }
}

/// What the writers of one run share: the staging folder, the options, and every part file made, so that the
/// parts of a second walker whose work was not used (see `SplitRead`) are deleted.
final class TableFolder: @unchecked Sendable {
    let staged: StagedFolder
    let gzip: Bool
    let format: TableExport.Format
    let rowsPerFile: Int?
    private let created = Locked<[String]>([])
    /// The writers of the walkers, in the order made: the first walker's first.
    private let writers = Locked<[PartWriter]>([])
    private let failures = Locked<[OutputError]>([])

    init(_ staged: StagedFolder, options: TableExport.Options) {
        self.staged = staged
        gzip = options.gzip
        format = options.format
        rowsPerFile = options.rowsPerFile
    }

    var partExtension: String { format == .parquet ? ".parquet" : gzip ? ".ndjson.gz" : ".ndjson" }

    /// The part writer of the next walker.
    func writer() -> PartWriter {
        writers.withLock { writers in
            let writer = PartWriter(folder: self, walker: writers.count)
            writers.append(writer)
            return writer
        }
    }

    /// The number of writers made so far.
    var writerCount: Int { writers.withLock { $0.count } }

    /// Starts the part file `relativePath`.
    func stream(to relativePath: String) throws(OutputError) -> StagedFolder.StreamedFile {
        created.withLock { $0.append(relativePath) }
        return try staged.stream(to: relativePath)
    }

    /// Records an output error a writer met.
    func record(_ error: OutputError) { failures.withLock { $0.append(error) } }

    /// The first output error any writer met.
    var firstFailure: OutputError? { failures.withLock { $0.first } }

    /// Names the parts of each table `part-00000…` in order (every table gets at least one, possibly empty, so
    /// that every loader finds its folder), deletes the parts of a second walker whose rows were not used (then
    /// `rows`, the counts of the sink that was kept, include none of them), and returns the rows and final files.
    func finish(rows: [Int]) throws(OutputError) -> [(rows: Int, files: [String])] {
        // The first walker's writer holds the second's parts when its sink was appended to the first's.
        let parts = writers.withLock { $0[0].parts }
        var kept = Set<String>()
        var result: [(rows: Int, files: [String])] = []
        for (table, (rows, parts)) in zip(Table.allCases, zip(rows, parts)) {
            var files: [String] = []
            for (index, part) in parts.enumerated() {
                let name = "\(table.name)/part-\(String(format: "%05d", index))\(partExtension)"
                try staged.move(part, to: name)
                kept.insert(part)
                files.append(name)
            }
            if files.isEmpty {
                let name = "\(table.name)/part-00000\(partExtension)"
                try TablePart(staged.stream(to: name), table: table, format: format, gzip: gzip).finish()
                files.append(name)
            }
            result.append((rows, files))
        }
        for part in created.withLock({ $0 }) where !kept.contains(part) { staged.remove(part) }
        return result
    }
}
