import FanoutGenerate
import FanoutImport
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutExport

/// `fanout tables` reads large exports with two walkers, each writing its own parts (`SplitRead`). Wherever the
/// export is split, the tables must be the bytes one walker writes: the same rows in the same order, the same
/// `seq`, the same manifest counts.
@Suite struct TableSplitTests {
    /// Every table's rows, its parts concatenated in manifest order, and the manifest's row counts.
    private func tables(_ folder: URL) throws -> (rows: [String: String], counts: [String: Int], parts: Int) {
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("_manifest.json")))
            as! [String: Any]
        let tables = manifest["tables"] as! [String: [String: Any]]
        var rows: [String: String] = [:], counts: [String: Int] = [:], parts = 0
        for (name, table) in tables {
            let files = table["files"] as! [String]
            parts += files.count
            rows[name] = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
                .joined()
            counts[name] = table["rows"] as? Int
        }
        return (rows, counts, parts)
    }

    @Test func everySplitPointWritesTheTablesOneWalkerWrites() throws {
        let folder = try TemporaryFolder("split")
        let root = folder.url
        let export = folder.url("export.json")
        _ = try ExportGenerator(.init(users: 120, seed: 11, defects: 20)).write(toFile: export.path)
        let size = try Data(contentsOf: export).count

        let whole = root.appendingPathComponent("whole")
        _ = try TableExport.write(path: export.path, schema: nil, out: whole.path, splitTarget: .some(nil))
        let expected = try tables(whole)
        #expect(expected.parts == Table.allCases.count, "one walker: one part a table")
        #expect(expected.counts["timeline"]! > 1000 && expected.counts["likes"]! > 100)

        let limited = root.appendingPathComponent("limited")
        _ = try TableExport.write(
            path: export.path, schema: nil, out: limited.path, options: .init(rowsPerFile: 5000),
            splitTarget: .some(nil))
        let singleParts = try tables(limited).parts
        var split = 0
        for target in (1..<12).map({ size * $0 / 12 }) {
            let out = root.appendingPathComponent("split-\(target)")
            _ = try TableExport.write(
                path: export.path, schema: nil, out: out.path, options: .init(rowsPerFile: 5000), splitTarget: target)
            let found = try tables(out)
            #expect(found.rows == expected.rows, "split near \(target)")
            #expect(found.counts == expected.counts, "split near \(target)")
            if found.parts > singleParts { split += 1 }
            // No part of either walker is left over, named or hidden.
            let listed = Set(try FileManager.default.subpathsOfDirectory(atPath: out.path))
            #expect(!listed.contains { $0.contains("/.w") }, "\(listed.filter { $0.contains("/.w") })")
        }
        #expect(split >= 8, "the second walker's parts are really used")
        withExtendedLifetime(folder) {}
    }
}
