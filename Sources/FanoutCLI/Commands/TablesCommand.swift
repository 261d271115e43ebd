import ArgumentParser
import FanoutExport
import FanoutImport
import Foundation

/// `fanout tables`: streams an export into newline-delimited JSON tables for Spark, DuckDB or BigQuery, in
/// bounded memory (README "Exports bigger than one machine").
struct TablesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tables",
        abstract: "Stream the export into newline-delimited JSON tables, in memory that does not grow with the export.",
        discussion: """
            Writes DIR/<table>/part-00000.ndjson for the tables \(Table.allCases.map(\.name).joined(separator: ", ")) \
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

    @Option(help: ArgumentHelp("The most rows a part file holds (default: no limit).", valueName: "N"))
    var rowsPerFile: Int?

    func validate() throws {
        if let rowsPerFile, rowsPerFile < 1 { throw ValidationError("--rows-per-file must be at least 1") }
    }

    func run() throws {
        let export = try input.input(try input.project())
        let summary = try PhaseClock.measure("tables") {
            try TableExport.write(
                path: export.path, schema: export.schema, out: out,
                options: TableExport.Options(gzip: gzip, rowsPerFile: rowsPerFile)
            ) { read, total in
                TerminalProgress.shared.update(done: read >> 20, total: total >> 20)
            }
        }
        let total = summary.rows.reduce(0, +)
        printStatus("wrote \(out): \(total) rows in \(summary.rows.count) tables (\(summary.schemaName) layout)")
    }
}
