import Foundation
import Testing

/// `fanout report` renders JSON reports as `check` renders its findings: byte for byte in all eight formats, with
/// the same exit codes, merging reports split by rule, and refusing a report it cannot read with one error
/// (docs/reports.md "Rendering JSON reports").
@Suite struct ReportCommandTests {
    static let formats = ["text", "json", "markdown", "html", "junit", "sarif", "github", "gitlab"]

    /// The exports: the demo, a generated export with drift of every kind, a Parse export folder, and the SQL
    /// rules' edge cases (findings whose fix entries the rule lists out of path order: follow-self).
    static func exports(_ cli: CLI) throws -> [String] {
        try FileManager.default.copyItem(
            at: CLI.repository.appendingPathComponent("Content/demo-export.json"), to: cli.url("demo.json"))
        try FileManager.default.copyItem(
            at: CLI.repository.appendingPathComponent("Tests/Fixtures/sql-edge-export.json"), to: cli.url("edge.json"))
        let generate = try cli.run(
            "generate", "--users", "60", "--seed", "3", "--defects", "25", "--out", "generated.json")
        #expect(generate.code == 0, "\(generate.stderr)")
        for (name, text) in Feed.sample.parseFiles { try cli.write(text, to: "parse/\(name)") }
        return ["demo.json", "generated.json", "parse", "edge.json"]
    }

    /// `check EXPORT OPTIONS --format F` and `report R.json REPORT-OPTIONS --format F`, where R.json is
    /// `check EXPORT JSON-OPTIONS --format json` (by default OPTIONS), give the same files, standard output,
    /// standard error and exit code.
    func expectSameAsCheck(
        _ cli: CLI, export: String, options: [String], json jsonOptions: [String]? = nil,
        report reportOptions: [String] = ["--fail-on", "never"], tag: String
    ) throws {
        let json = "\(tag).input.json"
        let made = try cli.run(
            ["check", export, "--format", "json", "--output", json, "--fail-on", "never"] + (jsonOptions ?? options))
        #expect(made.code == 0, "\(made.stderr)")
        for format in Self.formats {
            let checked = try cli.run(
                ["check", export, "--format", format, "--output", "\(tag).check.\(format)"] + options)
            let rendered = try cli.run(
                ["report", json, "--format", format, "--output", "\(tag).report.\(format)"] + reportOptions)
            #expect(
                rendered.code == checked.code,
                "\(tag) \(format): exit \(rendered.code), check \(checked.code): \(rendered.stderr)")
            let a = try Data(contentsOf: cli.url("\(tag).check.\(format)")),
                b = try Data(contentsOf: cli.url("\(tag).report.\(format)"))
            #expect(a == b, "\(tag) \(format): report differs from check")
            #expect(
                rendered.stderr == checked.stderr.replacingOccurrences(of: "\(tag).check.", with: "\(tag).report."),
                "\(tag) \(format): \(rendered.stderr) vs \(checked.stderr)")
            // The one report without --output goes to standard output, as check's does.
            let out1 = try cli.run(["check", export, "--format", format] + options)
            let out2 = try cli.run(["report", json, "--format", format] + reportOptions)
            #expect(
                out1.stdout == out2.stdout && out1.code == out2.code && !out1.stdout.isEmpty,
                "\(tag) \(format) on standard output")
        }
    }

    @Test func rendersEveryFormatByteForByteAsCheckDoes() throws {
        let cli = try CLI()
        for export in try Self.exports(cli) {
            let tag = export.replacingOccurrences(of: ".json", with: "")
            try expectSameAsCheck(cli, export: export, options: ["--fail-on", "never"], tag: tag)
            // Text on standard output keeps its own shapes: quiet, and a limit per rule.
            _ = try cli.run("check", export, "--format", "json", "--output", "\(tag).shapes.json")
            for shape in [["-q"], ["--max-per-rule", "1"]] {
                let checked = try cli.run(["check", export] + shape),
                    rendered = try cli.run(["report", "\(tag).shapes.json"] + shape)
                #expect(checked.stdout == rendered.stdout && checked.code == rendered.code, "\(tag) \(shape)")
            }
        }
    }

    /// A report whose findings have no file, line and column (a Spark job's) gets them from `--export`, by
    /// check's second pass: the same SARIF and text as check; bad `--export` is one error, nothing written.
    @Test func locatesFindingsInTheExportGiven() throws {
        let cli = try CLI()
        for export in try Self.exports(cli) {
            let tag = export.replacingOccurrences(of: ".json", with: "")
            _ = try cli.run("check", export, "--format", "json", "--output", "\(tag).located.json")
            var report =
                try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("\(tag).located.json")))
                as! [String: Any]
            report["findings"] = (report["findings"] as! [[String: Any]]).map {
                $0.filter { !["file", "line", "column"].contains($0.key) }
            }
            try cli.write(
                String(decoding: try JSONSerialization.data(withJSONObject: report), as: UTF8.self),
                to: "\(tag).unlocated.json")
            for format in ["sarif", "text", "json"] {
                let checked = try cli.run("check", export, "--format", format, "--output", "\(tag).c.\(format)")
                let without = try cli.run(
                    "report", "\(tag).unlocated.json", "--format", format, "--output", "\(tag).n.\(format)")
                let with = try cli.run(
                    "report", "\(tag).unlocated.json", "--export", export, "--format", format, "--output",
                    "\(tag).r.\(format)")
                #expect(with.code == checked.code && without.code == checked.code, "\(tag) \(format): \(with.stderr)")
                #expect(
                    try cli.read("\(tag).r.\(format)") == cli.read("\(tag).c.\(format)"),
                    "\(tag) \(format): --export differs from check")
                // Without the export they cannot be placed (the test would pass on nothing otherwise).
                #expect(try cli.read("\(tag).n.\(format)") != cli.read("\(tag).c.\(format)"), "\(tag) \(format)")
            }
        }
        let missing = try cli.run(
            "report", "demo.unlocated.json", "--export", "nowhere.json", "--format", "sarif", "--output", "m.sarif")
        #expect(
            missing.code == 2 && missing.stderr.contains("nowhere.json") && !cli.exists("m.sarif"), "\(missing.stderr)")
        let stdin = try cli.run(
            "report", "demo.unlocated.json", "--export", "-", "--format", "sarif", "--output", "s.sarif")
        #expect(stdin.code == 2 && stdin.stderr.contains("--export -") && !cli.exists("s.sarif"), "\(stdin.stderr)")
    }

    @Test func keepsReGradedAndSwitchedOffRulesAndTheBaseline() throws {
        let cli = try CLI()
        _ = try Self.exports(cli)
        // A rule re-graded without findings shows its severity only in HTML, Markdown and the charts.
        let rules = [
            "--rule", "push-id-time=error", "--rule", "like-count-mismatch=info", "--rule", "follow-self=off",
            "--rule", "post-field=warning",
        ]
        try expectSameAsCheck(cli, export: "generated.json", options: rules + ["--fail-on", "never"], tag: "graded")
        try expectSameAsCheck(
            cli, export: "generated.json", options: rules + ["--fail-on", "warning"], json: rules,
            report: ["--fail-on", "warning"], tag: "failing")
        // A baseline applied by check, carried in the JSON report…
        let written = try cli.run(
            "check", "demo.json", "--write-baseline", "demo.baseline.json", "--rule", "poster-copy-stale=off")
        #expect(written.code == 0)
        try expectSameAsCheck(cli, export: "demo.json", options: ["--baseline", "demo.baseline.json"], tag: "kept")
        // …or applied by report to a report made without it.
        try expectSameAsCheck(
            cli, export: "demo.json", options: ["--baseline", "demo.baseline.json"], json: [],
            report: ["--baseline", "demo.baseline.json"], tag: "later")
        // Applying a second baseline to a report that had one is refused.
        let twice = try cli.run(
            "report", "kept.input.json", "--baseline", "demo.baseline.json", "--format", "sarif", "--output",
            "twice.sarif")
        #expect(
            twice.code == 2 && twice.stderr.contains("already had a baseline applied") && !cli.exists("twice.sarif"),
            "\(twice.stderr)")
    }

    @Test func exitCodesFollowFailOnAsCheckDoes() throws {
        let cli = try CLI()
        for export in try Self.exports(cli) {
            _ = try cli.run("check", export, "--format", "json", "--output", "r.json", "--rule", "push-id-time=warning")
            var codes: Set<Int32> = []
            for level in ["error", "warning", "info", "never"] {
                let checked = try cli.run("check", export, "-q", "--fail-on", level, "--rule", "push-id-time=warning")
                let rendered = try cli.run("report", "r.json", "-q", "--fail-on", level)
                #expect(
                    checked.code == rendered.code && checked.stdout == rendered.stdout, "\(export) --fail-on \(level)")
                codes.insert(rendered.code)
            }
            #expect(codes == [0, 1], "\(export): the levels give both outcomes")
            let byDefault = try cli.run("report", "r.json", "-q")
            #expect(
                byDefault.code == (try cli.run("check", export, "-q", "--rule", "push-id-time=warning")).code,
                "default --fail-on error")
        }
    }

    /// Two reports on one export, each running half of the rules, merge into the report of all of them.
    @Test func reportsSplitByRuleMergeIntoCheckReport() throws {
        let cli = try CLI()
        _ = try Self.exports(cli)
        let first = [
            "like-count-mismatch", "like-unknown-user", "poster-copy-stale", "follow-mirror-missing",
            "timeline-missing",
        ]
        let rest = [
            "like-count-negative", "like-unknown-post", "like-mirror-missing", "like-duplicate", "poster-copy-uid",
            "post-unknown-poster", "post-field", "follow-unknown-user", "follow-self", "timeline-stale",
            "timeline-unknown-post", "timeline-poster", "key-invalid", "push-id-time", "post-flagged",
            "user-name-confusable",
        ]
        func off(_ rules: [String]) -> [String] { rules.flatMap { ["--rule", "\($0)=off"] } }
        #expect(
            try cli.run(["check", "generated.json", "--format", "json", "--output", "a.json"] + off(rest)).code == 1)
        #expect(
            try cli.run(["check", "generated.json", "--format", "json", "--output", "b.json"] + off(first)).code == 1)
        for format in Self.formats {
            let whole = try cli.run("check", "generated.json", "--format", format)
            let merged = try cli.run("report", "b.json", "a.json", "--format", format)
            #expect(whole.stdout == merged.stdout && whole.code == merged.code, "merged \(format)")
        }
        // A job's report may list findings in any order, and its members in any order: check's order is restored.
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("b.json"))) as? [String: Any])
        object["findings"] = Array((object["findings"] as! [Any]).reversed())
        try JSONSerialization.data(withJSONObject: object).write(to: cli.url("shuffled.json"))
        for format in ["sarif", "text"] {
            let ordered = try cli.run("report", "b.json", "--format", format),
                shuffled = try cli.run("report", "shuffled.json", "--format", format)
            #expect(ordered.stdout == shuffled.stdout && !ordered.stdout.isEmpty, "shuffled \(format)")
        }
        // Reports that both ran a rule, or are on different exports, do not merge.
        let twice = try cli.run("report", "a.json", "a.json", "--format", "sarif", "--output", "m.sarif")
        #expect(
            twice.code == 2 && twice.stderr.contains("like-count-mismatch ran in both a.json and a.json")
                && !cli.exists("m.sarif"),
            "\(twice.stderr)")
        _ = try cli.run("check", "demo.json", "--format", "json", "--output", "d.json")
        let other = try cli.run("report", "a.json", "d.json", "--format", "junit", "--output", "m.xml")
        #expect(
            other.code == 2 && other.stderr.contains("d.json is a report on demo.json") && !cli.exists("m.xml"),
            "\(other.stderr)")
    }

    /// A report that is not a readable version 1 report: exit 2, one line naming the file and where, nothing written.
    @Test func unreadableReportsAreOneErrorAndWriteNothing() throws {
        let cli = try CLI()
        _ = try Self.exports(cli)
        _ = try cli.run("check", "demo.json", "--format", "json", "--output", "good.json")
        let good = try cli.read("good.json")
        func variant(_ old: String, _ new: String) -> String {
            precondition(good.contains(old), old)
            return good.replacingOccurrences(of: old, with: new)
        }
        let cases: [(String, String, String)] = [
            ("truncated.json", String(good.prefix(good.count / 2)), "truncated.json: invalid JSON at line"),
            (
                "malformed.json", variant("\"findings\": [", "\"findings\": [,"),
                "malformed.json: invalid JSON at line 3"
            ),
            (
                "version.json", variant("\"version\": 1", "\"version\": 2"),
                "version.json: version: report version 2 is not supported"
            ),
            ("notreport.json", "{\"tool\": \"other\", \"version\": 1}", "notreport.json: not a fanout JSON report"),
            (
                "severity.json", variant("\"severity\": \"error\"", "\"severity\": \"fatal\""),
                "severity.json: findings[0].severity: \"fatal\" is not a severity"
            ),
            (
                "rule.json", variant("\"rule\": \"like-count-mismatch\"", "\"rule\": \"like-count-mismatc\""),
                "rule.json: findings[0].rule: unknown rule \"like-count-mismatc\" (did you mean \"like-count-mismatch\"?)"
            ),
            (
                "total.json", variant("\"total\": 7", "\"total\": 8"),
                "total.json: summary.total: says 8, but the findings hold 7"
            ),
            (
                "paths.json", variant("\"paths\": [", "\"paths\": [3, "),
                "paths.json: findings[0].paths[0]: expected a string"
            ),
        ]
        for (name, text, message) in cases {
            try cli.write(text, to: name)
            let result = try cli.run(
                "report", "good.json", name, "--format", "sarif", "--output", "out.sarif", "--format", "text")
            #expect(result.code == 2, "\(name): exit \(result.code)")
            #expect(result.stderr.hasPrefix("Error: \(message)"), "\(name): \(result.stderr)")
            #expect(
                result.stderr.split(separator: "\n").count == 1 && result.stdout.isEmpty,
                "\(name): one line, nothing printed")
            #expect(!cli.exists("out.sarif"), "\(name): nothing written")
        }
        let missing = try cli.run("report", "nowhere.json")
        #expect(
            missing.code == 2 && missing.stderr == "Error: cannot read report nowhere.json: no such file\n",
            "\(missing.stderr)")
        let none = try cli.run("report")
        #expect(none.code == 2 && none.stderr.hasPrefix("Error: give at least one JSON report"), "\(none.stderr)")
    }
}
