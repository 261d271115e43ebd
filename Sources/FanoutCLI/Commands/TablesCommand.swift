import ArgumentParser
import FanoutExport
import FanoutImport
import FanoutOutput
import Foundation

/// `fanout tables`: streams an export into newline-delimited JSON tables for Spark, DuckDB or BigQuery, in
/// bounded memory (docs/tables.md).
struct TablesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tables",
        abstract:
            "Stream the export into newline-delimited JSON (or Parquet) tables, in memory that does not grow with the export.",
        discussion: """
            Writes DIR/<table>/part-00000.ndjson (with --format parquet, part-00000.parquet) for the tables \(Table.allCases.map(\.name).joined(separator: ", ")) \
            and DIR/_manifest.json (the export, the schema's relations, each table's columns with their types, row \
            count and files). Every row carries its database path and what the rules need, so that every rule can \
            be computed in SQL over the tables. The folder is written aside and moved into place when complete.
            """
    )

    @OptionGroup var input: ExportOptions

    @Option(name: .shortAndLong, help: "The folder to write the tables into (replaced when complete).")
    var out: String

    @ArgumentParser.Flag(help: "Compress each part with gzip (part-00000.ndjson.gz).")
    var gzip = false

    @Option(
        help: ArgumentHelp(
            "The parts' format: ndjson (newline-delimited JSON, the default) or parquet (part-00000.parquet: "
                + "typed columns that Spark, DuckDB and pyarrow read without parsing JSON).",
            valueName: "ndjson|parquet"))
    var format: TableExport.Format = .ndjson

    @Option(
        help: ArgumentHelp(
            "The most rows a part file holds, \(NumberRange.rowsPerFile.expected) (default: no limit).", valueName: "N"),
        transform: NumberRange.rowsPerFile.parse)
    var rowsPerFile: Int?

    @Option(
        help: ArgumentHelp(
            "Read only part K of N of the export (K from 1 to N), into DIR/part-K-of-N: N processes, on one machine or many, "
                + "read a plain JSON export at once; then --merge.", valueName: "K/N"))
    var part: String?

    @ArgumentParser.Flag(
        help: "Make DIR, where --part K/N wrote the N parts, the tables of the whole export (DIR/_manifest.json).")
    var merge = false

    func validate() throws {
        if gzip, format == .parquet {
            throw ValidationError("--gzip compresses NDJSON parts; Parquet parts are written uncompressed, drop --gzip")
        }
        if merge, format != .ndjson {
            throw ValidationError("--merge takes the parts' format from their manifests; give no --format")
        }
        if let part, Self.part(part) == nil {
            throw ValidationError("--part \(part): expected K/N, a part K of N parts with 1 ≤ K ≤ N ≤ 100000, e.g. 3/8")
        }
        if merge, part != nil { throw ValidationError("--merge merges the parts --part wrote; give one or the other") }
        if merge, input.export != nil {
            throw ValidationError("--merge reads the parts in --out DIR, not an export; give no EXPORT")
        }
    }

    /// `K/N` as the part (index from 0).
    static func part(_ text: String) -> ExportPart? {
        let pieces = text.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 2, let k = Int(pieces[0]), let n = Int(pieces[1]), 1 <= k, k <= n, n <= 100_000 else {
            return nil
        }
        return ExportPart(index: k - 1, count: n)
    }

    func run() throws {
        // One run at a time writes a folder: the parts of one export are written at once, each into its own.
        let lock = OutputLock.taking(part.flatMap(Self.part).map { "\(out)/\(TableExport.partFolder($0))" } ?? out)
        defer { lock.release() }
        if merge {
            let summary: TableExport.Summary
            do {
                summary = try TableExport.merge(folder: out)
            } catch let error as TableExport.MergeError {
                throw UsageError(message: error.description)
            }
            printStatus(
                "merged \(out): \(summary.rows.reduce(0, +)) rows in \(summary.rows.count) tables (\(summary.schemaName) layout)"
            )
            return
        }
        let export = try input.input(try input.project())
        let part = self.part.flatMap(Self.part)
        let summary = try PhaseClock.measure("tables") {
            try TableExport.write(
                path: export.path, schema: export.schema, out: out,
                options: TableExport.Options(gzip: gzip, rowsPerFile: rowsPerFile, format: format), part: part
            ) { read, total in
                TerminalProgress.shared.update(done: read >> 20, total: total >> 20)
            }
        }
        let total = summary.rows.reduce(0, +)
        let written = part.map { "\(out)/\(TableExport.partFolder($0))" } ?? out
        printStatus("wrote \(written): \(total) rows in \(summary.rows.count) tables (\(summary.schemaName) layout)")
    }
}

extension TableExport.Format: ExpressibleByArgument {}
