import FanoutTestSupport
import Foundation
import Testing

/// `fanout sql`, the DuckDB runner and the Spark job against `fanout check` and `fanout export` (docs/tables.md). They
/// need pyspark, duckdb and Java: `make test` installs them (`make sql-deps`, a virtual environment in
/// .build/sql-venv); `FANOUT_SQL_PYTHON` names another Python that has them.
@Suite(.serialized) struct SQLDifferentialTests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
    static let fixtures = CLI.repository.appendingPathComponent("Tests/Fixtures")
    /// The Spark job, spark/fanout_check.py.
    static let sparkJob = CLI.repository.appendingPathComponent("spark/fanout_check.py").path

    /// The Python with pyspark and duckdb: `FANOUT_SQL_PYTHON`, else the virtual environment of `make sql-deps`.
    static let pythonPath =
        ProcessInfo.processInfo.environment["FANOUT_SQL_PYTHON"]
        ?? CLI.repository.appendingPathComponent(".build/sql-venv/bin/python").path

    /// Whether this machine has the engines' set-up (that Python, and Java for Spark): a plain `swift test` on a
    /// machine with only Swift skips the tests that need it, with the reason; `make test` installs it.
    static let engines =
        FileManager.default.isExecutableFile(atPath: pythonPath)
        && ((ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/java")
        } || ProcessInfo.processInfo.environment["JAVA_HOME"] != nil)

    static func python() throws -> String { pythonPath }

    /// Runs `executable arguments…` in `cli`'s folder, with `FANOUT` naming the binary under test.
    static func run(
        _ cli: CLI, _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> CLI.Result {
        try command(cli, executable, arguments, environment: environment)()
    }

    /// `run`'s process, to be started later, on any thread.
    static func command(
        _ cli: CLI, _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) -> @Sendable () throws -> CLI.Result {
        // spark-submit, beside the venv's python, runs that python's helpers by name.
        let bin = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let folder = cli.folder, fanout = CLI.binary.path
        return {
            try runProcess(
                URL(fileURLWithPath: executable), arguments, in: folder,
                environment: environment.merging(["FANOUT": fanout, "PATH": path]) { $1 })
        }
    }

    /// A case folder for scripts/test/sql-differential: the tables, check's JSON report and the snapshot of `export`,
    /// and the schema file it is read with, if not detected (`schema.toml`, which the script gives `check` too).
    static func prepare(_ cli: CLI, _ name: String, export: String, schema: String? = nil) throws {
        let layout = schema.map { ["--schema", $0] } ?? []
        if let schema {
            try FileManager.default.createDirectory(at: cli.url(name), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: schema, toPath: cli.url("\(name)/schema.toml").path)
        }
        var result = try cli.run(["tables", export, "--out", "\(name)/tables"] + layout)
        try #require(result.code == 0, "\(name): \(result.stderr)")
        result = try cli.run(
            ["check", export, "--format", "json", "--output", "\(name)/check.json", "--fail-on", "never"] + layout)
        try #require(result.code == 0, "\(name): \(result.stderr)")
        result = try cli.run(["export", export, "--out", "\(name)/export"] + layout)
        try #require(result.code == 0, "\(name): \(result.stderr)")
        try FileManager.default.moveItem(
            at: cli.url("\(name)/export/snapshot.json"), to: cli.url("\(name)/snapshot.json"))
    }

    /// A pair for `fanout sql --diff` (docs/diff-and-history.md): each export's tables (`NAME/old/tables`,
    /// `NAME/new/tables`) and `fanout diff`'s JSON report on the two exports (`NAME/diff.json`), which
    /// scripts/test/sql-differential requires the runners to write.
    static func prepareDiff(_ cli: CLI, _ name: String, old: String, new: String, schema: String? = nil) throws
        -> [String: Any]
    {
        let layout = schema.map { ["--schema", $0] } ?? []
        for (side, export) in [("old", old), ("new", new)] {
            let result = try cli.run(["tables", export, "--out", "\(name)/\(side)/tables"] + layout)
            try #require(result.code == 0, "\(name): \(result.stderr)")
        }
        let result = try cli.run(
            ["diff", old, new, "--format", "json", "--output", "\(name)/diff.json", "--fail-on", "never"] + layout)
        try #require(result.code == 0, "\(name): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("\(name)/diff.json"))) as! [String: Any]
    }

    /// The pairs of exports the SQL diff is checked on, with `fanout diff`'s reports: a generated app a day apart
    /// (DiffPairs), Chirp's and FriendlyPix's declared copies and comments drifted, and a Parse export whose rows
    /// (keyed by objectId) change. Together they add, remove and change facts of users, posts, likes, follows,
    /// timelines, comments and declarations, and make findings new and fixed.
    static func diffPairs(_ cli: CLI) throws -> [String] {
        var reports: [String: [String: Any]] = [:]
        _ = try DiffPairs.generated(cli, folder: "diff-generated")
        reports["diff-generated"] = try prepareDiff(
            cli, "diff-generated", old: "diff-generated/old.json", new: "diff-generated/new.json")
        for layout in [DeclaredFixtures.chirp, DeclaredFixtures.friendlyPixComments] {
            let name = "diff-\(layout.name)"
            try cli.write(try layout.export(), to: "\(name)/old.json")
            try cli.write(try DeclaredFixtures.drifted(layout), to: "\(name)/new.json")
            reports[name] = try prepareDiff(
                cli, name, old: "\(name)/old.json", new: "\(name)/new.json",
                schema: DeclaredFixtures.schema(layout, in: cli))
        }
        // Parse: a like row taken back, a user renamed (their posts' and likes' rows stay).
        for (name, text) in Feed.sample.parseFiles {
            try cli.write(text, to: "diff-parse/old-export/\(name)")
            // A class file is `{"results": [...]}` or a bare array of rows.
            let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
            var rows = (parsed as? [String: Any])?["results"] as? [[String: Any]] ?? parsed as! [[String: Any]]
            if name == "Like.json" { rows.removeFirst() }
            if name == "_User.json" { rows[0]["username"] = "renamed_user" }
            let edited: Any = parsed is [String: Any] ? ["results": rows] : rows
            try cli.write(
                String(
                    decoding: try JSONSerialization.data(withJSONObject: edited, options: [.sortedKeys]), as: UTF8.self),
                to: "diff-parse/new-export/\(name)")
        }
        reports["diff-parse"] = try prepareDiff(
            cli, "diff-parse", old: "diff-parse/old-export", new: "diff-parse/new-export")
        // A comparison that never differed could not fail: every kind of change is somewhere.
        var seen = Set<String>()
        for report in reports.values {
            for relation in report["data"] as! [[String: Any]] {
                for kind in ["added", "removed", "changed"] where !(relation[kind] as! [Any]).isEmpty {
                    seen.insert("\(relation["relation"] as! String) \(kind)")
                }
            }
            let audit = report["audit"] as! [String: Any]
            for kind in ["new", "fixed"] where !(audit[kind] as! [Any]).isEmpty { seen.insert("findings \(kind)") }
        }
        let needed: Set<String> = [
            "users added", "users removed", "users changed", "posts added", "posts removed", "posts changed",
            "likes added", "likes removed", "following removed", "followers removed", "timeline added",
            "timeline removed", "timeline changed", "comments added", "comments changed", "tweet-count changed",
            "timeline-text removed", "comment-mirror removed", "findings new", "findings fixed",
        ]
        #expect(needed.isSubset(of: seen), "kinds of change no pair has: \(needed.subtracting(seen).sorted())")
        return reports.keys.sorted()
    }

    /// The findings of a JSON report as a multiset of their report fields.
    static func findings(_ cli: CLI, _ file: String) throws -> [String] {
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url(file))) as! [String: Any]
        return (report["findings"] as! [[String: Any]]).map { finding in
            let fields = finding.filter {
                ["rule", "severity", "paths", "expected", "actual", "fix", "message"].contains($0.key)
            }
            let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .fragmentsAllowed])
            return String(decoding: data, as: UTF8.self)
        }.sorted()
    }

    /// Every fixture through check, DuckDB and Spark (one session for all): the same findings, messages
    /// included, and the snapshot's timelines, like counts and likers.
    @Test(.enabled(if: engines, "needs pyspark, DuckDB and Java: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func duckDBAndSparkGiveCheckFindingsAndTheSnapshotsDerivedData() throws {
        let python = try Self.python()
        let cli = try CLI()
        try Self.prepare(cli, "demo", export: Self.demo)
        // Generated exports: every kind of drift the generator injects, on two seeds and sizes.
        for (seed, users, defects) in [(3, 60, 40), (9, 150, 200)] {
            #expect(
                try cli.run(
                    "generate", "--users", "\(users)", "--seed", "\(seed)", "--defects", "\(defects)",
                    "--out", "generated-\(seed).json"
                ).code == 0)
            try Self.prepare(cli, "generated-\(seed)", export: "generated-\(seed).json")
        }
        try Self.prepare(cli, "friendlypix", export: LayoutTests.friendlyPix.path)
        // Instaclone: a like mirror, edge values 1, no poster field on timeline entries.
        // One like missing from its mirror and one mirror entry without its like (like-mirror-missing).
        var insta = try JSONSerialization.jsonObject(with: Data(Feed.sample.instaclone.utf8)) as! [String: Any]
        var mirror = insta["user-likes"] as! [String: [String: Any]]
        let liker = mirror.keys.sorted()[0]
        mirror[liker]!.removeValue(forKey: mirror[liker]!.keys.sorted()[0])
        mirror[liker]!["-KnoSuchLike000000000"] = 1
        insta["user-likes"] = mirror
        // And one post in another user's list of posts, missing from its owner's (post-mirror-missing).
        var tree = try JSONTree(
            String(decoding: try JSONSerialization.data(withJSONObject: insta, options: [.sortedKeys]), as: UTF8.self))
        let post = Feed.sample.posts[0], other = Feed.sample.users.first { $0.uid != post.owner }!.uid
        tree["user-posts/\(post.owner)/\(post.key)"] = nil
        tree["user-posts/\(other)/\(post.key)"] = 1
        try cli.write(tree.text, to: "instaclone.json")
        try Self.prepare(cli, "instaclone", export: "instaclone.json")
        // Parse: rows with their own ids, a double tap (like-duplicate), flags.
        for (name, text) in Feed.sample.parseFiles { try cli.write(text, to: "parse-export/\(name)") }
        try Self.prepare(cli, "parse", export: "parse-export")
        // Hand-made and hostile exports: unknown users and posters, self-follows, repeated keys, invalid keys,
        // control characters, timestamps 10^15 to 10^295 days from their push IDs.
        for name in ["sql-edge-export", "hostile-export", "reports-hostile-export"] {
            try Self.prepare(cli, name, export: Self.fixtures.appendingPathComponent("\(name).json").path)
        }
        // The timeline rules that Spark answers from one view of the timeline's gaps (`timeline_gaps`), with rows of
        // each kind it keeps: an entry both stale and naming the wrong poster, members with a wrong poster or none, a
        // member stored twice with two posters, an unknown post in an unknown user's timeline; and uidDee's, which
        // holds as many entries as it has members, every post among them, one with no poster and one with another's,
        // so that only the fingerprint's sums tell it from a whole timeline (`timeline_suspects`); and the same for
        // uidDee's follows: one in `following`, another in `followers` (`mirror_suspects`).
        let edge = try String(
            contentsOf: Self.fixtures.appendingPathComponent("sql-edge-export.json"), encoding: .utf8)
        let timeline = [
            (
                #""uidCat": {"-Kfm1DtVx0kQ9zPq2La1": {"poster_uid": "uidAnn"}, "#,
                #""uidCat": {"-Kfm1DtVx0kQ9zPq2La1": {"poster_uid": "uidAnn"}, "-Kfm1DtVx0kQ9zPq2La2": {"poster_uid": "uidDee"}, "#
                    + #""-Kfm1DtVx0kQ9zPq2La3": {"poster_uid": "uidAnn"}, "-Kfm1DtVx0kQ9zPq2La3": {"poster_uid": "uidBen"}, "#
            ),
            (
                #""uidBen": {"-Kfm1DtVx0kQ9zPq2Ld1": {"poster_uid": "uidDee"}},"#,
                #""uidBen": {"-Kfm1DtVx0kQ9zPq2Ld1": {"poster_uid": "uidDee"}, "-Kfm1DtVx0kQ9zPq2La1": {"poster_uid": "uidCat"}},"#
                    + #" "uidDee": {"-Kfm1DtVx0kQ9zPq2Ld1": {"poster_uid": "uidDee"}, "-Kfm1DtVx0kQ9zPq2La1": {}, "#
                    + #""-Kfm1DtVx0kQ9zPq2La2": {"poster_uid": "uidAnn"}, "-Kfm1DtVx0kQ9zPq2La3": {"poster_uid": "uidAnn"}, "#
                    + #""-Kfm1DtVx0kQ9zPq2La4": {"poster_uid": "uidAnn"}, "-Kfm1DtVx0kQ9zPq2La5": {"poster_uid": "uidAnn"}, "#
                    + #""-Kfm1DtVx0kQ9zPq2La6": {"poster_uid": "uidAnn"}, "-Kfm1DtVx0kQ9zPq2La7": {"poster_uid": "uidBen"}},"#
            ),
            (#""uidBen": {"uidAnn": true},"#, #""uidBen": {"uidAnn": true, "uidDee": true},"#),
            (
                #""uidNobody": {"-Kfm1DtVx0kQ9zPq2La2": {"poster_uid": "uidAnn"}}"#,
                #""uidNobody": {"-Kfm1DtVx0kQ9zPq2La2": {"poster_uid": "uidAnn"}, "-Kfm1DtVx0kQ9zPq2Lx8": {"poster_uid": "uidAnn"}}"#
            ),
        ]
        try cli.write(
            timeline.reduce(edge) { text, change in
                #expect(text.contains(change.0))
                return text.replacing(change.0, with: change.1)
            }, to: "timeline-gaps.json")
        try Self.prepare(cli, "timeline-gaps", export: "timeline-gaps.json")
        let gaps = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("timeline-gaps/check.json")))
        #expect(
            Set(((gaps as! [String: Any])["findings"] as! [[String: Any]]).map { $0["rule"] as! String }).isSuperset(
                of: ["timeline-missing", "timeline-stale", "timeline-unknown-post", "timeline-poster"]))
        // Declared counters, mirrors, copies and references, comments, rows keyed by IDs: every drift of
        // DeclaredFixtures at once (docs/layouts.md "Declaring your app's copies").
        for layout in DeclaredFixtures.all {
            try cli.write(try DeclaredFixtures.drifted(layout), to: "\(layout.name).json")
            try Self.prepare(
                cli, "declared-\(layout.name)", export: "\(layout.name).json",
                schema: DeclaredFixtures.schema(layout, in: cli))
        }
        // Records keyed by a field, counted in their own nodes, and a collection mirroring the users.
        try cli.write(RecordsCLITests.export, to: "records.json")
        try cli.write(RecordsCLITests.schema, to: "records.toml")
        try Self.prepare(cli, "declared-records", export: "records.json", schema: cli.url("records.toml").path)
        let declared = DeclaredFixtures.all.map { "declared-\($0.name)" } + ["declared-records"]
        let cases =
            [
                "demo", "generated-3", "generated-9", "friendlypix", "instaclone", "parse", "sql-edge-export",
                "hostile-export", "reports-hostile-export", "timeline-gaps",
            ] + declared
        // Every rule is exercised somewhere: a rule whose query were wrong could not hide behind no findings.
        var rules = Set<String>()
        for name in cases {
            let report =
                try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("\(name)/check.json")))
                as! [String: Any]
            for finding in report["findings"] as! [[String: Any]] { rules.insert(finding["rule"] as! String) }
        }
        let all =
            try JSONSerialization.jsonObject(
                with: Data(cli.run("sql", "--schema", "parse", "--format", "json").stdout.utf8)) as! [String: Any]
        // The built-in rules (those of relations a layout may lack too) and every declared rule of the fixtures.
        let catalog = Set(
            ((all["queries"] as! [[String: Any]]).map { $0["rule"] as! String })
                + (all["skipped"] as! [[String: Any]]).map { $0["rule"] as! String }
        )
        .union(["post-mirror-missing", "comment-unknown-user", "comment-unknown-post"])
        .union(DeclaredFixtures.all.flatMap { $0.drifts.flatMap { $0.findings.map { $0[0] } } })
        .union(RecordsCLITests.rules)
        #expect(rules == catalog, "rules without a finding in any fixture: \(catalog.subtracting(rules).sorted())")

        let pairs = try Self.diffPairs(cli)
        let script = CLI.repository.appendingPathComponent("scripts/test/sql-differential").path
        // Spark's whole run is CPU-bound (two cores busy throughout), and each case or side of a pair
        // costs it seconds of fixed cost (tens of stages and their tasks) whatever its size: it runs the cases and
        // pairs that give every rule findings and exercise every part of the SQL, and DuckDB runs everything.
        // The pairs on Spark: the generated app a day apart (users, posts, likes, follows, timelines changed;
        // findings new and fixed) and Chirp's declared copies (counters, copies and mirrors of declarations
        // changed). FriendlyPix's comments on Spark as a case (a case costs Spark a third of what its pair does); the Parse pair's
        // tables are those of every layout, its SQL the generated pair's. timeline-gaps is sql-edge-export with
        // more timeline rows, so Spark runs it alone of the two; Chirp's drifted export is the Chirp pair's newer
        // one, all its findings new; generated-9's rules are the generated pair's; the demo goes through Spark in
        // sparkJobUnderSparkSubmitWritesTheReport.
        let sparkPairs = ["diff-chirp", "diff-generated"]
        let spark =
            ["instaclone", "parse", "reports-hostile-export", "timeline-gaps"]
            + declared.filter { $0 != "declared-chirp" }
        var sparkRules = Set<String>()
        for name in spark {
            let report =
                try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("\(name)/check.json")))
                as! [String: Any]
            for finding in report["findings"] as! [[String: Any]] { sparkRules.insert(finding["rule"] as! String) }
        }
        for pair in sparkPairs {
            let audit =
                (try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("\(pair)/diff.json")))
                as! [String: Any])["audit"]
                as! [String: Any]
            for kind in ["new", "fixed"] {
                for finding in audit[kind] as! [[String: Any]] { sparkRules.insert(finding["rule"] as! String) }
            }
        }
        #expect(
            sparkRules == catalog,
            "rules without a finding in Spark's cases: \(catalog.subtracting(sparkRules).sorted())")
        // Two processes side by side, each with a Spark session of its own, of about equal time: the pairs (the
        // Chirp pair alone took 43 s) and the first declared case in one; the other cases and DuckDB's share in the
        // other; then DuckDB alone on the pairs Spark leaves out.
        let declaredOnSpark = spark.filter { $0.hasPrefix("declared-") }
        let withPairs = Array(declaredOnSpark.prefix(1))
        let pairsRun = Self.command(
            cli, python,
            [script, "--spark", "--fanout", CLI.binary.path] + withPairs.map { cli.url($0).path }
                + sparkPairs.flatMap { ["--diff", cli.url($0).path] })
        let (pairsResult, casesResult) = try sideBySide(
            { try pairsRun() },
            {
                try Self.run(
                    cli, python,
                    [script, "--spark", "--fanout", CLI.binary.path]
                        + spark.filter { !withPairs.contains($0) }.map { cli.url($0).path }
                        + cases.filter { !spark.contains($0) }.flatMap { ["--duckdb-only", cli.url($0).path] })
            })
        let duckDBPairsResult = try Self.run(
            cli, python,
            [script, "--fanout", CLI.binary.path]
                + pairs.filter { !sparkPairs.contains($0) }.flatMap { ["--diff", cli.url($0).path] })
        let results = [casesResult, pairsResult, duckDBPairsResult]
        for result in results {
            #expect(result.code == 0, "\(result.stdout)\n\(result.stderr)")
            // Spark's generated code compiles: a query whose code does not is run interpreted, slower, with a stack
            // trace on stderr (the findings views once met Spark 4's bug with try_element_at).
            #expect(!result.stderr.contains("CompileException"), "\(result.stderr.prefix(2000))")
        }
        let output = results.map(\.stdout).joined()
        for name in spark {
            #expect(output.contains("\(name) spark: "), "\(name): \(output)")
        }
        for name in cases {
            #expect(output.contains("\(name) duckdb: "), "\(name): \(output)")
        }
        for pair in pairs {
            #expect(output.contains("\(pair) duckdb diff:"), "\(pair): \(output)")
        }
        for pair in sparkPairs {
            #expect(output.contains("\(pair) spark diff:"), "\(pair): \(output)")
        }
    }

    /// The Spark job as a user runs it, under spark-submit, on the demo: report.json and the derived tables,
    /// atomically, and through `fanout report --export` the reports `check` writes.
    @Test(.enabled(if: engines, "needs pyspark, DuckDB and Java: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func sparkJobUnderSparkSubmitWritesTheReport() throws {
        let python = try Self.python()
        let cli = try CLI()
        try Self.prepare(cli, "demo", export: Self.demo)
        let submit = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("spark-submit")
            .path
        let job = Self.sparkJob
        let result = try Self.run(
            cli, submit,
            [
                // The client compiler alone, as the job itself starts a local session for small inputs: under
                // spark-submit the JVM is started before the job can choose; it takes this run's CPU down by two fifths.
                "--master", "local[2]", "--driver-java-options", "-XX:TieredStopAtLevel=1", job, "demo/tables",
                "--out", "spark-out", "--derived", "--rule", "timeline-poster=warning",
            ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(
            try cli.run(
                "check", Self.demo, "--format", "json", "--output", "check.json", "--rule", "timeline-poster=warning"
            ).code == 1)
        #expect(try Self.findings(cli, "spark-out/report.json") == Self.findings(cli, "check.json"))
        // The pipeline's end: the job's report through `fanout report --export` is check's SARIF, JUnit and
        // GitHub output, byte for byte, with its exit code (scripts/test/sql-differential does so for every case).
        for format in ["sarif", "junit", "github"] {
            let checked = try cli.run(
                "check", Self.demo, "--rule", "timeline-poster=warning", "--format", format, "--output",
                "check.\(format)")
            let rendered = try cli.run(
                "report", "spark-out/report.json", "--export", Self.demo, "--format", format, "--output",
                "spark.\(format)")
            #expect(rendered.code == checked.code && checked.code == 1, "\(format): \(rendered.stderr)")
            #expect(
                try cli.read("spark.\(format)") == cli.read("check.\(format)"),
                "\(format): fanout report on the Spark report differs from check")
        }
        #expect(
            cli.files(under: "spark-out") == [
                ".fanout-output", "likers/part-00000.ndjson", "post_stats/part-00000.ndjson",
                "report.json", "timelines/part-00000.ndjson",
            ])
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path)).contains {
                $0.contains("fanout-tmp")
            })
    }

    /// The local job as `python3 spark/fanout_check.py` runs it, twice: the first run writes the class-data archive of
    /// Spark's classes (spark/class_archive.py) as its JVM exits, in place of a truncated one (which the JVM would
    /// crash on) and a dead run's temporary file, keeping the two other environments' archives used last; the second
    /// maps it and writes nothing there (the same file, not replaced); both report check's findings.
    @Test(.enabled(if: engines, "needs pyspark, DuckDB and Java: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func localJobWritesThenUsesTheClassArchive() throws {
        let python = try Self.python()
        let cli = try CLI()
        try Self.prepare(cli, "demo", export: Self.demo)
        let job = Self.sparkJob
        let folder = cli.url("archive").path
        let environment = ["FANOUT_CLASS_ARCHIVE": folder]
        let describe = CLI.repository.appendingPathComponent("spark/class_archive.py").path
        let status = try Self.run(cli, python, [describe], environment: environment).stdout
        #expect(status.hasPrefix("no class-data archive yet in \(folder)"), "\(status)")
        let key = try #require(status.split(separator: "(spark-classes-").last?.split(separator: "-").first)
        // What runs before this one may have left: an archive cut short (its size is not the one in its name) and
        // the temporary file of a run whose process is gone.
        try cli.write(String(repeating: "x", count: 100), to: "archive/spark-classes-\(key)-4096.jsa")
        try cli.write("", to: "archive/spark-classes-\(key).999999999.tmp")
        // Other environments' archives (other keys): the two used last stay; one used before them and one unused for
        // 31 days go.
        for (key, daysAgo) in [("0", 31), ("1", 0), ("2", 1), ("3", 2)] {
            let name = "archive/spark-classes-\(String(repeating: key, count: 16))-4.jsa"
            try cli.write("used", to: name)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -Double(daysAgo) * 24 * 3600 - 60)],
                ofItemAtPath: cli.url(name).path)
        }
        #expect(try cli.run("check", Self.demo, "--format", "json", "--output", "check.json").code == 1)

        var result = try Self.run(cli, python, [job, "demo/tables", "--out", "first"], environment: environment)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(try Self.findings(cli, "first/report.json") == Self.findings(cli, "check.json"))
        let written = cli.files(under: "archive")
        #expect(
            written.count == 3 && written.contains("spark-classes-1111111111111111-4.jsa")
                && written.contains("spark-classes-2222222222222222-4.jsa"), "\(written)")
        let name = try #require(written.first { $0.hasPrefix("spark-classes-\(key)-") })
        let size = try #require(Int(name.dropLast(".jsa".count).split(separator: "-").last ?? ""))
        #expect(name.hasPrefix("spark-classes-") && name.hasSuffix(".jsa") && size > 1_000_000, "\(name)")
        let attributes = try FileManager.default.attributesOfItem(atPath: cli.url("archive/\(name)").path)
        #expect(attributes[.size] as? Int == size)

        result = try Self.run(cli, python, [job, "demo/tables", "--out", "second"], environment: environment)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try Self.findings(cli, "second/report.json") == Self.findings(cli, "check.json"))
        #expect(cli.files(under: "archive") == written)
        let again = try FileManager.default.attributesOfItem(atPath: cli.url("archive/\(name)").path)
        #expect(again[.systemFileNumber] as? Int == attributes[.systemFileNumber] as? Int)
        #expect(
            try Self.run(cli, python, [describe], environment: environment).stdout.hasPrefix(
                cli.url("archive/\(name)").path))
    }

    /// The JVM options of a local job over large tables (`local_jvm` in spark/fanout_check.py), which the tests' small
    /// inputs never get: Java starts with them (a malformed `-XX:CompileCommand` stops it at once) and prints nothing
    /// on standard output (the compile commands echo themselves unless told to be quiet).
    @Test(.enabled(if: engines, "needs pyspark, DuckDB and Java: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func largeLocalJobsJVMOptionsStartJava() throws {
        let cli = try CLI()
        let printed = try Self.run(
            cli, try Self.python(),
            [
                "-c",
                "import sys; sys.path.insert(0, sys.argv[1]); import fanout_check; "
                    + "print(fanout_check.local_jvm(1 << 40)[1])",
                URL(fileURLWithPath: Self.sparkJob).deletingLastPathComponent().path,
            ])
        #expect(printed.code == 0, "\(printed.stderr)")
        let options = printed.stdout.split(separator: " ").map(String.init).map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(options.contains("-XX:+UseParallelGC") && options.contains { $0.hasPrefix("-XX:CompileCommand=") })
        // The Java that Spark starts: JAVA_HOME's, else the one on PATH.
        let java =
            try ProcessInfo.processInfo.environment["JAVA_HOME"].map {
                try runProcess(URL(fileURLWithPath: "\($0)/bin/java"), options + ["-version"], in: cli.folder)
            } ?? runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["java"] + options + ["-version"], in: cli.folder)
        #expect(java.code == 0, "\(java.stderr)")
        #expect(java.stdout.isEmpty, "\(java.stdout)")
    }

    /// Severity overrides and switched-off rules, as in check; bad input: one message, its exit code, nothing
    /// written.
    @Test(.enabled(if: engines, "needs pyspark, DuckDB and Java: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func duckDBRunnerFollowsRuleSettingsAndRejectsBadInput() throws {
        let python = try Self.python()
        let cli = try CLI()
        try Self.prepare(cli, "demo", export: Self.demo)
        let runner = CLI.repository.appendingPathComponent("spark/fanout_duckdb.py").path
        let settings = ["--rule", "like-count-mismatch=warning", "--rule", "timeline-missing=off"]
        var result = try Self.run(cli, python, [runner, "demo/tables", "--out", "duck"] + settings)
        #expect(result.code == 0, "\(result.stderr)")
        _ = try cli.run(["check", Self.demo, "--format", "json", "--output", "check.json"] + settings)
        #expect(try Self.findings(cli, "duck/report.json") == Self.findings(cli, "check.json"))
        let report =
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("duck/report.json"))) as! [String: Any]
        let skipped = (report["summary"] as! [String: Any])["rules_skipped"] as! [[String: String]]
        #expect(skipped.contains(["rule": "timeline-missing", "reason": "switched off by configuration"]))

        // An unknown rule: fanout sql's message, exit 2.
        result = try Self.run(
            cli, python, [runner, "demo/tables", "--out", "bad1", "--rule", "like-count-mismatc=off"])
        #expect(result.code == 2)
        #expect(
            result.stderr.contains("unknown rule \"like-count-mismatc\" (did you mean \"like-count-mismatch\"?)"),
            "\(result.stderr)")
        // Not a tables folder.
        result = try Self.run(cli, python, [runner, "demo", "--out", "bad2"])
        #expect(result.code == 2)
        #expect(
            result.stderr
                == "Error: demo: not a tables folder (no _manifest.json); give the folder `fanout tables` wrote\n")
        // A row that does not fit the manifest's types.
        let part = cli.url("demo/tables/posts/part-00000.ndjson")
        var text = try String(contentsOf: part, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"like_count\":3", with: "\"like_count\":\"three\"")
        try Data(text.utf8).write(to: part)
        result = try Self.run(cli, python, [runner, "demo/tables", "--out", "bad3"])
        #expect(result.code == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: demo/tables: rows that do not fit the manifest"), "\(result.stderr)")
        for name in ["bad1", "bad2", "bad3"] { #expect(!cli.exists(name)) }
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path)).contains {
                $0.contains("fanout-tmp")
            })
        // A folder fanout did not write is not replaced.
        try cli.write("mine", to: "notes/keep.txt")
        result = try Self.run(cli, python, [runner, "demo/tables", "--out", "notes"])
        #expect(result.code == 5)
        #expect(try cli.read("notes/keep.txt") == "mine")

        // --diff: two tables folders of one layout, and nothing that goes with one folder.
        #expect(try cli.run("tables", Self.demo, "--out", "again").code == 0)
        result = try Self.run(cli, python, [runner, "again", "--diff", "again", "--out", "same"] + settings)
        #expect(result.code == 0, "\(result.stderr)")
        let same = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("same/diff.json"))) as! [String: Any]
        #expect(
            (same["audit"] as! [String: Any])["summary"] as? [String: Int] == [
                "new": 0, "new_errors": 0, "new_info": 0, "new_warnings": 0, "fixed": 0, "unchanged": 6,
            ], "the demo against itself: its findings (7 less the one switched off) are all unchanged")
        let spark = Self.sparkJob
        let bad: [([String], String)] = [
            (
                [runner, "again", "--diff", "nowhere", "--out", "bad4"],
                "Error: nowhere: no such folder; give the folder `fanout tables` wrote\n"
            ),
            (
                [runner, "again", "--diff", "again", "--derived", "--out", "bad5"],
                "Error: --derived goes with one tables folder, not with --diff\n"
            ),
            // Before Spark starts.
            (
                [spark, "again", "--diff", "again", "--export", Self.demo, "--out", "bad6"],
                "Error: --export writes one tables folder; --diff compares two that `fanout tables` wrote\n"
            ),
        ]
        for (arguments, message) in bad {
            result = try Self.run(cli, python, arguments)
            #expect(result.code == 2 && result.stderr == message, "\(arguments): \(result.stderr)")
            #expect(!cli.exists(arguments.last!))
        }
    }

    /// `fanout sql`: which rules run comes from the tables' manifest, with check's reasons; queries for both
    /// dialects; usage errors.
    @Test func sqlCommandSkipsRulesAsCheckDoes() throws {
        let cli = try CLI()
        #expect(try cli.run("tables", Self.demo, "--out", "t").code == 0)
        let sql = try cli.run("sql", "t", "--dialect", "duckdb", "--derived")
        #expect(sql.code == 0, "\(sql.stderr)")
        #expect(
            sql.stdout.contains(
                "\n-- skipped like-mirror-missing: the schema has no like mirror relation, such as user-likes ([likes] mirror)\n"
            ))
        #expect(sql.stdout.contains("\n-- like-count-mismatch (error): "))
        #expect(sql.stdout.contains("\n-- derived timelines: "))
        let json = try cli.run(
            "sql", "t", "--format", "json", "--rule", "push-id-time=error", "--rule", "key-invalid=off")
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let queries = document["queries"] as! [[String: String]]
        #expect(queries.first { $0["rule"] == "push-id-time" }?["severity"] == "error")
        #expect(queries.first { $0["rule"] == "push-id-time" }?["sql"]?.contains("'error' AS severity") == true)
        #expect(!queries.contains { $0["rule"] == "key-invalid" })
        #expect(document["export"] as? String == Self.demo)
        // Spark's timeline rules read shared views of the suspect timelines and their gaps, its like rules one of the
        // suspect posts, each mirror rule one of its suspects, each made only where one of its rules runs; DuckDB's
        // shared views are the three every engine makes (docs/performance.md "The rules on Spark and DuckDB").
        func views(_ arguments: [String]) throws -> [String] {
            let json = try cli.run(["sql", "t", "--format", "json", "--shared-views"] + arguments)
            let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
            return (document["views"] as! [[String: String]]).map { $0["name"]! }
        }
        let shared = ["live_users", "live_posts", "like_counts"]
        let likes = ["like_suspects"], mirror = ["follow_mirror_missing_suspects"]
        let gaps = ["timeline_suspects", "timeline_gaps"]
        #expect(try views(["--dialect", "spark"]) == shared + likes + mirror + gaps)
        #expect(try views(["--dialect", "duckdb"]) == shared)
        let timelineRules = ["timeline-missing", "timeline-stale", "timeline-unknown-post", "timeline-poster"]
        let likeRules = ["like-unknown-user", "like-unknown-post", "like-duplicate"]
        let off = { (rules: ArraySlice<String>) in rules.flatMap { ["--rule", "\($0)=off"] } }
        #expect(try views(["--dialect", "spark"] + off(timelineRules[...])) == shared + likes + mirror)
        #expect(try views(["--dialect", "spark"] + off(timelineRules.dropFirst())) == shared + likes + mirror + gaps)
        #expect(try views(["--dialect", "spark"] + off(likeRules[...])) == shared + mirror + gaps)
        #expect(try views(["--dialect", "spark"] + off(likeRules.dropLast())) == shared + likes + mirror + gaps)
        #expect(try views(["--dialect", "spark"] + off(["follow-mirror-missing"])) == shared + likes + gaps)
        // The same skips as check's on the same export.
        _ = try cli.run("check", Self.demo, "--format", "json", "--output", "check.json", "--rule", "key-invalid=off")
        let check = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("check.json"))) as! [String: Any]
        let skipped = (document["skipped"] as! [[String: String]]).map { [$0["rule"]!, $0["reason"]!] }
        #expect(
            skipped
                == ((check["summary"] as! [String: Any])["rules_skipped"] as! [[String: String]]).map {
                    [$0["rule"]!, $0["reason"]!]
                })

        var bad = try cli.run("sql", "nowhere")
        #expect(bad.code == 2)
        #expect(
            bad.stderr
                == "Error: nowhere: not a tables folder (no _manifest.json); give the folder `fanout tables` wrote, or --schema NAME|FILE\n"
        )
        bad = try cli.run("sql", "t", "--rule", "timeline-mising=off")
        #expect(bad.code == 2)
        #expect(bad.stderr.contains("unknown rule \"timeline-mising\" (did you mean \"timeline-missing\"?)"))
        try cli.write("{\"tool\": \"fanout\"}", to: "broken/_manifest.json")
        bad = try cli.run("sql", "broken")
        #expect(bad.code == 2)
        #expect(bad.stderr.contains("broken/_manifest.json: not a manifest of `fanout tables`"), "\(bad.stderr)")

        // --diff: the comparison's views and queries over old_ and new_ tables, named by each manifest's export.
        for (name, text) in Feed.sample.parseFiles { try cli.write(text, to: "parse/\(name)") }
        #expect(try cli.run("tables", "parse", "--out", "p").code == 0)
        #expect(try cli.run("tables", Self.demo, "--out", "t2").code == 0)
        let diff = try cli.run("sql", "--diff", "t", "t2", "--format", "json", "--rule", "key-invalid=off")
        #expect(diff.code == 0, "\(diff.stderr)")
        let plan = try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as! [String: Any]
        #expect(plan["kind"] as? String == "diff" && plan["schema"] as? String == "makestagram")
        #expect((plan["views"] as! [[String: String]]).map { $0["name"]! } == ["old_findings", "new_findings"])
        #expect(
            (plan["queries"] as! [[String: String]]).map { $0["name"]! } == [
                "data", "counts", "rule_counts", "findings",
            ])
        #expect(
            (plan["old"] as! [String: Any])["prefix"] as? String == "old_"
                && (plan["new"] as! [String: Any])["export"] as? String == Self.demo)
        #expect(!(plan["rules"] as! [[String: String]]).contains { $0["rule"] == "key-invalid" })
        let newer = (plan["views"] as! [[String: String]])[1]["sql"]!
        #expect(newer.contains("FROM `new_posts`") && !newer.contains("`old_") && !newer.contains("FROM `posts`"))
        let text = try cli.run("sql", "--diff", "t", "t2", "--dialect", "duckdb")
        #expect(
            text.code == 0 && text.stdout.contains("\nCREATE OR REPLACE TEMPORARY VIEW old_findings AS\n"),
            "\(text.stderr)")
        let usage: [([String], String)] = [
            (
                ["sql", "--diff", "t"],
                "Error: --diff compares two tables folders: give OLD_TABLES and NEW_TABLES, as `fanout tables` wrote them\n"
            ),
            (["sql", "t", "t2"], "Error: t2: a second tables folder goes with --diff\n"),
            (
                ["sql", "--diff", "t", "nowhere"],
                "Error: nowhere: not a tables folder (no _manifest.json); give the folder `fanout tables` wrote\n"
            ),
            (
                ["sql", "--diff", "t", "p"],
                "Error: t holds tables of the makestagram layout and p of the parse layout; a diff compares two exports of one layout\n"
            ),
        ]
        for (arguments, message) in usage {
            let result = try cli.run(arguments)
            #expect(
                result.code == 2 && result.stderr == message && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
        }
    }
}
