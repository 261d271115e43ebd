import FanoutTestSupport
import Foundation
import Testing

/// `fanout tables --part K/N` and `--merge` (docs/tables.md): N processes each read
/// their share of an export, and the merged folder holds exactly the tables one `fanout tables` writes, row for
/// row in the same order, for every N and wherever the shares' boundaries fall.
@Suite struct TablePartsTests {
    /// Each table's rows in manifest order, file after file, and the manifest without its files.
    static func tables(_ cli: CLI, _ folder: String) throws -> (rows: [String: [String]], manifest: [String: Any]) {
        var manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("\(folder)/_manifest.json")))
            as! [String: Any]
        var rows: [String: [String]] = [:]
        var tables = manifest["tables"] as! [String: [String: Any]]
        for (name, table) in tables {
            rows[name] = try (table["files"] as! [String]).flatMap { file in
                try String(contentsOf: cli.url("\(folder)/\(file)"), encoding: .utf8).split(separator: "\n").map(
                    String.init)
            }
            tables[name]!["files"] = nil
        }
        manifest["tables"] = tables
        return (rows, manifest)
    }

    /// Writes `export` whole and in 1 to `most` parts, and checks each merge against the whole.
    func expectPartsMatchWhole(
        _ cli: CLI, _ export: String, schema: String? = nil, most: Int = 8,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let layout = schema.map { ["--schema", $0] } ?? []
        let whole = try cli.run(["tables", export, "--out", "whole"] + layout)
        try #require(whole.code == 0, "\(whole.stderr)", sourceLocation: sourceLocation)
        let expected = try Self.tables(cli, "whole")
        for n in 1...most {
            let folder = "parts-\(n)"
            for k in 1...n {
                let part = try cli.run(["tables", export, "--part", "\(k)/\(n)", "--out", folder] + layout)
                try #require(part.code == 0, "\(k)/\(n): \(part.stderr)", sourceLocation: sourceLocation)
            }
            let merged = try cli.run("tables", "--merge", "--out", folder)
            try #require(merged.code == 0, "\(n): \(merged.stderr)", sourceLocation: sourceLocation)
            let got = try Self.tables(cli, folder)
            for (table, rows) in expected.rows {
                #expect(
                    got.rows[table] == rows, "\(export) in \(n) parts: table \(table) differs",
                    sourceLocation: sourceLocation)
            }
            #expect(
                NSDictionary(dictionary: got.manifest).isEqual(to: expected.manifest),
                "\(export) in \(n) parts: the manifests differ apart from files", sourceLocation: sourceLocation)
        }
    }

    @Test func everyLayoutsFixturesGiveTheWholeTablesInOneToEightParts() throws {
        let cli = try CLI()
        try expectPartsMatchWhole(cli, CLI.repository.appendingPathComponent("Content/demo-export.json").path)
        #expect(
            try cli.run("generate", "--users", "150", "--seed", "4", "--defects", "60", "--out", "generated.json").code
                == 0)
        try expectPartsMatchWhole(cli, "generated.json")
        try expectPartsMatchWhole(cli, LayoutTests.friendlyPix.path)
        try cli.write(Feed.sample.instaclone, to: "instaclone.json")
        try expectPartsMatchWhole(cli, "instaclone.json")
        for name in ["hostile-export", "sql-edge-export"] {
            try expectPartsMatchWhole(
                cli, CLI.repository.appendingPathComponent("Tests/Fixtures/\(name).json").path, most: 5)
        }
        for layout in DeclaredFixtures.all {
            try cli.write(try DeclaredFixtures.drifted(layout), to: "\(layout.name).json")
            try expectPartsMatchWhole(
                cli, "\(layout.name).json", schema: DeclaredFixtures.schema(layout, in: cli), most: 4)
        }
    }

    /// Boundaries where they are hardest: inside a huge member whose text holds braces, quotes and escapes; in
    /// sections the schema does not read; in pretty-printed and CRLF exports; past the last member that can start a
    /// part (the later parts are empty).
    @Test func adversarialBoundariesGiveTheWholeTables() throws {
        let cli = try CLI()
        let hostile = String(repeating: "}{\\\"[]\\\\ \\u00e9 ", count: 20_000)
        let export = """
            {"aaa-skipped": {"x": {"y": "\(hostile)"}, "z": [1, 2, {"q": "}"}]},
             "followers": {"u2": {"u1": true}},
             "following": {"u1": {"u2": true}},
             "posts": {"u1": {"-Kp1aaaaaaaaaaaaaaaa": {"caption": "\(hostile)", "created_at": 1, "image_url": "https://e/1.jpg",
                "image_height": 1, "like_count": 0, "poster": {"uid": "u1", "username": "one"}}},
                       "u2": {"-Kp2aaaaaaaaaaaaaaaa": {"caption": "x", "created_at": 2, "image_url": "https://e/2.jpg",
                "image_height": 1, "like_count": 0, "poster": {"uid": "u2", "username": "two"}}}},
             "timeline": {"u1": {"-Kp1aaaaaaaaaaaaaaaa": {"poster_uid": "u1"}, "-Kp2aaaaaaaaaaaaaaaa": {"poster_uid": "u2"}}},
             "users": {"u1": {"username": "one", "bio": "\(hostile)"}, "u2": {"username": "two"}},
             "zzz-skipped": "\(hostile)"}
            """
        try cli.write(export, to: "hostile.json")
        try expectPartsMatchWhole(cli, "hostile.json", schema: "makestagram")
        // The same export pretty-printed with CRLF line ends.
        let object = try JSONSerialization.jsonObject(with: Data(export.utf8))
        let pretty = String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
            as: UTF8.self)
        try cli.write(pretty.replacingOccurrences(of: "\n", with: "\r\n"), to: "pretty.json")
        try expectPartsMatchWhole(cli, "pretty.json", schema: "makestagram")
    }

    /// What --part cannot read, and merges of parts that do not belong together: one message each, exit 2,
    /// nothing written.
    @Test func partsRefuseWhatTheyCannotReadAndMergesCheckTheParts() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        try cli.write(try String(contentsOf: URL(fileURLWithPath: demo), encoding: .utf8), to: "demo.json")
        try runTool("gzip", ["-k", cli.url("demo.json").path])
        var result = try cli.run("tables", "demo.json.gz", "--part", "1/2", "--out", "t")
        #expect(
            result.code == 2
                && result.stderr.contains("gzip-compressed; --part reads a byte range of the file: inflate it first"),
            "\(result.stderr)")
        result = try cli.run(
            ["tables", "-", "--part", "1/2", "--out", "t"], stdin: Data(try cli.read("demo.json").utf8))
        #expect(result.code == 2 && result.stderr.contains("save the export to a file first"), "\(result.stderr)")
        for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
            result = try cli.run("tables", "demo.json", "--part", bad, "--out", "t")
            #expect(result.code == 2 && result.stderr.contains("expected K/N"), "\(bad): \(result.stderr)")
        }
        #expect(!cli.exists("t"))

        #expect(try cli.run("tables", "demo.json", "--part", "1/3", "--out", "t").code == 0)
        #expect(try cli.run("tables", "demo.json", "--part", "3/3", "--out", "t").code == 0)
        result = try cli.run("tables", "--merge", "--out", "t")
        #expect(result.code == 2 && result.stderr.contains("parts 2 of 3 are missing"), "\(result.stderr)")
        #expect(!cli.exists("t/_manifest.json"))
        #expect(try cli.run("tables", "demo.json", "--part", "1/2", "--out", "t").code == 0)
        result = try cli.run("tables", "--merge", "--out", "t")
        #expect(result.code == 2 && result.stderr.contains("parts of 2 and 3 parts"), "\(result.stderr)")
        result = try cli.run("tables", "demo.json", "--merge", "--out", "t")
        #expect(
            result.code == 2 && result.stderr.contains("--merge reads the parts in --out DIR, not an export"),
            "\(result.stderr)")
        // A part of another export.
        try FileManager.default.removeItem(at: cli.url("t"))
        try cli.write(
            try cli.read("demo.json").replacingOccurrences(of: "carol_sings", with: "carol_sang"), to: "other.json")
        #expect(try cli.run("tables", "demo.json", "--part", "1/2", "--out", "t").code == 0)
        #expect(try cli.run("tables", "other.json", "--part", "2/2", "--out", "t").code == 0)
        result = try cli.run("tables", "--merge", "--out", "t")
        #expect(
            result.code == 2 && result.stderr.contains("another export, schema or options than part 1's"),
            "\(result.stderr)")
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: cli.url("t").path)).contains {
                $0.contains("fanout-tmp")
            })
    }
}
