import FanoutTestSupport
import Foundation
import Testing

/// `fanout infer` as a user runs it: infer a schema from an export, use it unchanged with `fanout check --schema`,
/// and get the drift the export has (docs/layouts.md "Inferring a schema").
@Suite struct InferCLITests {
    static let friendlyPix = CLI.repository.appendingPathComponent("Tests/Fixtures/friendlypix-initial_db.json").path

    /// The findings of `check EXPORT --schema SCHEMA` (or the detected preset), as (rule, first path).
    static func findings(_ cli: CLI, _ export: String, schema: String?) throws -> [(rule: String, path: String)] {
        let result = try cli.run(
            ["check", export, "--format", "json", "--max-per-rule", "all"] + (schema.map { ["--schema", $0] } ?? []))
        #expect(result.code == 0 || result.code == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("matched nothing"), "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        return try #require(report["findings"] as? [[String: Any]]).map {
            ($0["rule"] as? String ?? "", ($0["paths"] as? [String])?.first ?? "")
        }
    }

    /// Infers `export`'s schema into `name`, checking that the command succeeds.
    static func infer(_ cli: CLI, _ export: String, to name: String, _ extra: [String] = []) throws -> String {
        let result = try cli.run(["infer", export, "--out", name] + extra)
        #expect(result.code == 0, "\(result.stderr)")
        return try cli.read(name)
    }

    /// The kinds of the defects `generate --manifest` injected.
    static func manifestKinds(_ cli: CLI, _ name: String) throws -> Set<String> {
        Set(
            try cli.read(name).split(separator: "\n").compactMap { line in
                (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["kind"] as? String
            })
    }

    /// On a generated export of the default layout, in both forms (a Realtime Database file and a Firestore
    /// emulator folder), the schema inferred from the drifting export finds every kind of drift injected, the
    /// same findings as the preset, and nothing on the clean export.
    @Test(arguments: [[String](), ["--format", "firestore"]])
    func inferredSchemaFindsEveryInjectedDriftOfTheGeneratedLayout(_ form: [String]) throws {
        let cli = try CLI()
        for (name, defects) in [("clean", "0"), ("drift", "40")] {
            let result = try cli.run(
                [
                    "generate", "--users", "80", "--seed", "9", "--defects", defects, "--out", name,
                    "--manifest", "\(name).jsonl",
                ] + form)
            #expect(result.code == 0, "\(result.stderr)")
        }
        let schema = try Self.infer(cli, "drift", to: "inferred.toml")
        #expect(schema.contains("[users]") && schema.contains("[posts]") && schema.contains("[timeline]"), "\(schema)")
        let clean = try Self.findings(cli, "clean", schema: "inferred.toml")
        #expect(clean.isEmpty, "the clean export: \(clean.prefix(5))")
        let drift = try Self.findings(cli, "drift", schema: "inferred.toml")
        let kinds = try Self.manifestKinds(cli, "drift.jsonl")
        #expect(kinds.count == 10)
        #expect(kinds.subtracting(drift.map(\.rule)).isEmpty, "missed: \(kinds.subtracting(drift.map(\.rule)))")
        // The preset declares the same: the same findings, at the same paths.
        let preset = try Self.findings(cli, "drift", schema: nil)
        #expect(
            Set(drift.map { "\($0.rule) \($0.path)" }) == Set(preset.map { "\($0.rule) \($0.path)" }),
            "inferred \(drift.count), preset \(preset.count)")
        // A schema inferred from the clean export finds the drift too.
        _ = try Self.infer(cli, "clean", to: "from-clean.toml")
        let again = try Self.findings(cli, "drift", schema: "from-clean.toml")
        #expect(kinds.subtracting(again.map(\.rule)).isEmpty, "missed: \(kinds.subtracting(again.map(\.rule)))")
    }

    /// FriendlyPix keeps each user's posts, likes, follows and feed under `users/{uid}` beside `people/{uid}`:
    /// the inferred schema reads people as the users and finds the posts missing from their author's list, and
    /// declares no copy, since the export keeps none.
    @Test func friendlyPixInfersItsMirrorsAndNoCopy() throws {
        let cli = try CLI()
        let schema = try Self.infer(cli, Self.friendlyPix, to: "fp.toml")
        #expect(schema.contains("path = \"people/{user}\""), "\(schema)")
        #expect(schema.contains("path = \"posts/{post}\"") && schema.contains("poster = \"author\""), "\(schema)")
        #expect(schema.contains("mirror = \"users/{user}/posts/{post}\""), "\(schema)")
        #expect(!schema.contains("[[copies]]") && !schema.contains("poster_username"), "\(schema)")
        let findings = try Self.findings(cli, Self.friendlyPix, schema: "fp.toml")
        let preset = try Self.findings(cli, Self.friendlyPix, schema: "friendlypix")
        let missing = findings.filter { $0.rule == "post-mirror-missing" }.count
        #expect(missing == preset.filter { $0.rule == "post-mirror-missing" }.count && missing >= 17, "\(missing)")
    }

    /// A forum and a board app keep collections beside users and posts, and a Twitter-like app rows keyed by push
    /// IDs: the schema inferred from the consistent export places them as `[records.NAME]` and relations whose rows
    /// name their end in a field, with the references, counters (per record, per user and of the
    /// whole export), mirrors and copies their data holds, finds nothing on that export, and finds each drift of
    /// `DeclaredFixtures` the manual's hand-written schema finds, but those its data cannot show (a counter on two
    /// records, under --min-support 3).
    @Test(arguments: ["forum", "pinwall", "chirp"])
    func recordsOfAnyCollectionAreInferredWithTheirDeclarations(_ name: String) throws {
        let layout = DeclaredFixtures.all.first { $0.name == name }!
        let cli = try CLI()
        try cli.write(try layout.export(), to: "clean.json")
        let schema = try Self.infer(cli, "clean.json", to: "inferred.toml")
        let expected =
            name == "forum"
            ? [
                "[records.categories]", "[records.forums]", "[records.threads]", "[likes]",
                "at = \"stats/threadCount\"",
                "at = \"forums/{forum}/threadCount\"", "at = \"users/{author}/threadCount\"",
                "at = \"forums/{forum}/threads/{thread}\"", "of = \"forums.title\"", "to = \"threads\"",
            ]
            : name == "pinwall"
                ? ["[records.boards]", "to = \"boards\"", "of = \"boards.name\"", "path = \"pins/{post}\""]
                // Rows keyed by push IDs that name their end in a field, and copy the user or tweet it names.
                : [
                    "path = \"tweets/{post}\"", "following = { path = \"following/{user}/{id}\", target = \"key\" }",
                    "followers = { path = \"followers/{target}/list/{id}\", user = \"key\" }", "post = \"tweetKey\"",
                    "at = \"following/{user}/{id}/name\"", "at = \"timeline/{user}/{id}/text\"",
                ]
        for line in expected { #expect(schema.contains(line), "\(name): no \(line) in\n\(schema)") }
        #expect(try Self.findings(cli, "clean.json", schema: "inferred.toml").isEmpty)
        // Counters on fewer than three records are below the default --min-support.
        // A counter inside a per-user record beside a list of rows (Chirp's followers/{uid}/count) is not yet
        // proposed.
        let unshown = { (path: String) in
            (path.hasPrefix("categories/") && path.hasSuffix("/forumCount"))
                || (path.hasPrefix("boards/") && (path.hasSuffix("/pinCount") || path.hasSuffix("/owner")))
                || (path.hasPrefix("followers/") && path.hasSuffix("/count"))
        }
        for drift in layout.drifts {
            var tree = try JSONTree(layout.export())
            drift.edit(&tree)
            try cli.write(tree.text, to: "drifted.json")
            let found = Set(try Self.findings(cli, "drifted.json", schema: "inferred.toml").map(\.path))
            let missed = drift.findings.map { $0[1] }.filter { !unshown($0) && !found.contains($0) }
            #expect(missed.isEmpty, "\(name): \(drift.name): missed \(missed)")
        }
    }

    /// Run without --out, it prints the schema; with --out it refuses to replace a file unless --force; bad
    /// options are one error, exit 2, nothing written.
    @Test func writesToStandardOutputOrAFileAndRefusesToReplaceOne() throws {
        let cli = try CLI()
        let printed = try cli.run("infer", Self.friendlyPix)
        #expect(printed.code == 0 && printed.stdout.contains("[users]"), "\(printed.stderr)")
        try cli.write("mine\n", to: "kept.toml")
        let refused = try cli.run("infer", Self.friendlyPix, "--out", "kept.toml")
        #expect(refused.code == 2 && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try cli.read("kept.toml") == "mine\n")
        let forced = try cli.run("infer", Self.friendlyPix, "--out", "kept.toml", "--force")
        #expect(forced.code == 0, "\(forced.stderr)")
        // The same schema, named after the file it is written to.
        #expect(
            try cli.read("kept.toml")
                == printed.stdout.replacing("friendlypix-initial_db", with: "kept"))
        let bad = try cli.run("infer", Self.friendlyPix, "--threshold", "2", "--out", "bad.toml")
        #expect(bad.code == 2 && bad.stderr.contains("--threshold"), "\(bad.stderr)")
        #expect(!cli.exists("bad.toml"))
        let unknown = try cli.run("infer", Self.friendlyPix, "--users", "members")
        #expect(unknown.code == 2 && unknown.stderr.contains("--users members"), "\(unknown.stderr)")
        let explained = try cli.run("infer", Self.friendlyPix, "--explain")
        #expect(explained.stderr.contains("as each user's list of their posts"), "\(explained.stderr)")
    }

    /// `check` on a layout no preset fits says how to infer a schema.
    @Test func checkOnAnUnknownLayoutSuggestsInfer() throws {
        let cli = try CLI()
        try cli.write(#"{"members": {"m1": {"handle": "ann"}}, "content": {}}"#, to: "app.json")
        let result = try cli.run("check", "app.json")
        #expect(result.code == 2)
        #expect(result.stderr.contains("fanout infer"), "\(result.stderr)")
    }
}
