import FanoutTestSupport
import Foundation
import Testing

/// `fanout tables --format parquet` read by independent readers (docs/tables.md "Parquet"): pyarrow and DuckDB
/// (`scripts/validate/parquet_tables.py`) must read the rows of the NDJSON tables of the same export, in order,
/// with the manifest's types as Parquet's and string columns dictionary-encoded where they repeat; and DuckDB's findings on the Parquet tables must be `check`'s
/// (`scripts/test/sql-differential`, the SQL differential test's comparison).
@Suite struct ParquetTablesTests {
    static let fixtures = CLI.repository.appendingPathComponent("Tests/Fixtures")
    static let python = SQLDifferentialTests.pythonPath
    static let enabled = FileManager.default.isExecutableFile(atPath: python)

    /// Several row groups a file even on small exports (2 KB each).
    static let smallRowGroups = ["FANOUT_PARQUET_ROW_GROUP_BYTES": "2048"]

    @Test(.enabled(if: enabled, "needs pyarrow and DuckDB: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func readersGetTheNDJSONRows() throws {
        let cli = try CLI()
        var result = try cli.run(["generate", "--users", "40", "--seed", "5", "--defects", "10", "--out", "gen.json"])
        try #require(result.code == 0, "\(result.stderr)")
        // Keys and strings with escapes and control characters, nulls, huge timestamps, comments, parts of a few
        // rows, and files of several row groups.
        let cases: [(name: String, export: String, options: [String])] = [
            ("demo", CLI.repository.appendingPathComponent("Content/demo-export.json").path, []),
            ("hostile", Self.fixtures.appendingPathComponent("hostile-export.json").path, []),
            ("comments", Self.fixtures.appendingPathComponent("hostile-comments-export.json").path, []),
            ("edge", Self.fixtures.appendingPathComponent("sql-edge-export.json").path, []),
            ("friendlypix", Self.fixtures.appendingPathComponent("friendlypix-initial_db.json").path, []),
            ("generated", "gen.json", ["--rows-per-file", "50"]),
        ]
        var pairs: [String] = []
        for (name, export, options) in cases {
            for format in ["ndjson", "parquet"] {
                result = try cli.run(
                    ["tables", export, "--out", "\(name)/\(format)", "--format", format] + options,
                    environment: Self.smallRowGroups)
                try #require(result.code == 0, "\(name) \(format): \(result.stderr)")
            }
            pairs += ["\(name)/ndjson", "\(name)/parquet"]
        }
        // Parts read apart, then merged: the tables of one run.
        for part in ["1/3", "2/3", "3/3"] {
            result = try cli.run(["tables", "gen.json", "--part", part, "--out", "merged", "--format", "parquet"])
            try #require(result.code == 0, "part \(part): \(result.stderr)")
        }
        result = try cli.run(["tables", "--merge", "--out", "merged"])
        try #require(result.code == 0, "\(result.stderr)")
        result = try cli.run(["tables", "gen.json", "--out", "whole"])
        try #require(result.code == 0, "\(result.stderr)")
        pairs += ["whole", "merged"]
        let script = CLI.repository.appendingPathComponent("scripts/validate/parquet_tables.py").path
        result = try SQLDifferentialTests.run(cli, Self.python, [script] + pairs)
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("7 pairs"), "\(result.stdout)")
        #expect(!result.stdout.contains("(0 column chunks dictionary-encoded"), "\(result.stdout)")
    }

    @Test(.enabled(if: enabled, "needs pyarrow and DuckDB: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func duckDBFindingsAreChecks() throws {
        let cli = try CLI()
        var result = try cli.run([
            "generate", "--users", "30", "--seed", "11", "--defects", "16", "--out", "drift.json",
        ])
        try #require(result.code == 0, "\(result.stderr)")
        result = try cli.run(
            ["tables", "drift.json", "--out", "case/tables", "--format", "parquet"], environment: Self.smallRowGroups)
        try #require(result.code == 0, "\(result.stderr)")
        result = try cli.run([
            "check", "drift.json", "--format", "json", "--output", "case/check.json", "--fail-on", "never",
        ])
        try #require(result.code == 0, "\(result.stderr)")
        let findings =
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("case/check.json"))) as! [String: Any]
        #expect((findings["findings"] as! [Any]).count > 0, "the drifted export has findings")
        result = try cli.run(["export", "drift.json", "--out", "case/export"])
        try #require(result.code == 0, "\(result.stderr)")
        try FileManager.default.moveItem(at: cli.url("case/export/snapshot.json"), to: cli.url("case/snapshot.json"))
        let script = CLI.repository.appendingPathComponent("scripts/test/sql-differential").path
        result = try SQLDifferentialTests.run(
            cli, Self.python, [script, "--fanout", CLI.binary.path, "--duckdb-only", cli.url("case").path])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func gzipParquetIsRefused() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        let result = try cli.run(["tables", demo, "--out", "t", "--format", "parquet", "--gzip"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("--gzip compresses NDJSON parts"), "\(result.stderr)")
        #expect(!cli.exists("t"))
    }
}
