import Foundation
import Testing

/// `fanout check --history` and `fanout history` through the binary (docs/diff-and-history.md, "History").
@Suite struct HistoryCLITests {
    /// Thirty nightly runs of one app whose drift moves a little from night to night (20 to 28 injected defects),
    /// one night with ten times as much: that run is flagged, for the rules whose findings jumped, and no other.
    @Test func thirtyRunsWithOneJumpFlagThatRunAndNoOther() throws {
        let cli = try CLI()
        let jump = 17
        for run in 1...30 {
            let defects = run == jump ? 240 : 20 + 2 * (run % 5)
            #expect(
                try cli.run(
                    "generate", "--users", "30", "--seed", "4", "--defects", "\(defects)", "--out", "night.json"
                ).code == 0)
            let check = try cli.run("check", "night.json", "--history", "history.ndjson", "-q", "--fail-on", "never")
            #expect(check.code == 0, "\(check.stderr)")
            #expect(check.stderr.contains("wrote history.ndjson"), "\(check.stderr)")
        }
        let lines = try cli.read("history.ndjson").split(separator: "\n")
        #expect(lines.count == 30)
        for line in lines {
            let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            #expect(
                record["tool"] as? String == "fanout" && record["version"] as? Int == 1
                    && record["export"] as? String == "night.json")
            #expect((record["counts"] as! [String: Int])["users"] == 30)
            let findings = record["findings"] as! [String: [String: Any]]
            let severities = record["severities"] as! [String: Int]
            #expect(severities.values.reduce(0, +) == findings.values.reduce(0) { $0 + ($1["count"] as! Int) })
        }

        let history = try cli.run("history", "history.ndjson")
        #expect(history.code == 0, "\(history.stderr)")
        let flagged = history.stdout.split(separator: "\n").filter { $0.hasPrefix("  run ") }
        #expect(!flagged.isEmpty && flagged.allSatisfy { $0.hasPrefix("  run \(jump) (") }, "\(history.stdout)")
        #expect(history.stdout.hasPrefix("30 runs of night.json from "), "\(history.stdout)")
        #expect(history.stdout.contains("; 1 run flagged."), "\(history.stdout)")
        // The newest run is not the jump: --fail-on anomaly passes.
        #expect(try cli.run("history", "history.ndjson", "--fail-on", "anomaly").code == 0)

        // The page: a chart per rule, the jump's columns in the error colour and no other.
        // HTML to a file and text to standard output, from one read, as check pairs --format and --output.
        let page = try cli.run(
            "history", "history.ndjson", "--format", "html", "--output", "history.html", "--format", "text")
        #expect(
            page.code == 0 && page.stderr == "wrote history.html\n" && page.stdout == history.stdout, "\(page.stderr)")
        let html = try cli.read("history.html")
        #expect(
            html.contains("<h1>History</h1>") && html.components(separatedBy: "<svg class=\"chart\"").count - 1 == 19)
        let slot = 1000 / 30, x = (jump - 1) * slot
        let red = html.components(separatedBy: "class=\"chart-bar sev-error\" x=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        #expect(!red.isEmpty && Set(red) == ["\(x / 10)" + (x % 10 == 0 ? "" : ".\(x % 10)") + "%"], "\(Set(red))")

        // A jump on the newest night fails with --fail-on anomaly.
        #expect(
            try cli.run("generate", "--users", "30", "--seed", "4", "--defects", "240", "--out", "night.json").code == 0
        )
        #expect(try cli.run("check", "night.json", "--history", "history.ndjson", "-q", "--fail-on", "never").code == 0)
        let failing = try cli.run("history", "history.ndjson", "--fail-on", "anomaly")
        #expect(
            failing.code == 1 && failing.stdout.contains("; 2 runs flagged, the newest among them."),
            "\(failing.stdout)")
    }

    /// The factor and window come from `[history]` in fanout.toml; the report page of a site built in the project
    /// shows the trend; a history or settings that cannot be used are one message, exit 2, nothing written.
    @Test func projectSettingsReportPageAndBadInput() throws {
        let cli = try CLI()
        for defects in [10, 10, 12, 10, 30] {
            #expect(
                try cli.run(
                    "generate", "--users", "20", "--seed", "2", "--defects", "\(defects)", "--out", "export.json"
                ).code == 0)
            #expect(
                try cli.run("check", "export.json", "--history", "runs.ndjson", "-q", "--fail-on", "never").code == 0)
        }
        // Three times the median: 30 defects against 10 is flagged under the default factor 2 and not under 3.5.
        try cli.write("export = \"export.json\"\n\n[history]\nfile = \"runs.ndjson\"\n", to: "fanout.toml")
        #expect(try cli.run("history", "--fail-on", "anomaly").code == 1)
        try cli.write(
            "export = \"export.json\"\n\n[history]\nfile = \"runs.ndjson\"\nfactor = 3.5\nwindow = 4\n",
            to: "fanout.toml")
        let calm = try cli.run("history", "--fail-on", "anomaly")
        #expect(
            calm.code == 0 && calm.stdout.contains("more than 3.5 × the median of its 4 runs before"), "\(calm.stdout)")

        #expect(try cli.run("build", "--out", "site").code == 0)
        let report = try cli.read("site/report.html")
        #expect(report.contains("<h2 id=\"trend-heading\">Trend</h2>") && report.contains("id=\"chart-trend-"))
        try cli.write("export = \"export.json\"\n", to: "fanout.toml")
        #expect(try cli.run("build", "--out", "plain").code == 0)
        #expect(!(try cli.read("plain/report.html")).contains("trend-heading"), "no history, no trend")

        let before = try cli.read("runs.ndjson")
        try cli.write(before + "{\"tool\": \"fanout\", \"version\": 1}\n", to: "bad.ndjson")
        let cases: [([String], String)] = [
            (
                ["check", "export.json", "--history", "bad.ndjson", "--format", "json", "--output", "r.json"],
                "Error: bad.ndjson: line 6: \"export\", \"schema\" and \"time\" must be strings\n"
            ),
            (
                ["history", "missing.ndjson", "--output", "h.html", "--format", "html"],
                "Error: cannot read history missing.ndjson: no such file\n"
            ),
            (
                ["history", "runs.ndjson", "--format", "json"],
                "Error: --format json: a history is written as text or html\n"
            ),
            (
                ["history", "runs.ndjson", "--format", "junit"],
                "Error: --format junit: a history is written as text or html\n"
            ),
            (
                ["history", "runs.ndjson", "--format", "html", "--output", "h.html", "--format", "sarif"],
                "Error: --format sarif: a history is written as text or html\n"
            ),
        ]
        for (arguments, message) in cases {
            let result = try cli.run(arguments)
            #expect(
                result.code == 2 && result.stderr == message && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
        }
        #expect(!cli.exists("r.json") && !cli.exists("h.html"))
        #expect(
            try cli.read("bad.ndjson") == before + "{\"tool\": \"fanout\", \"version\": 1}\n",
            "the bad history is left as it was")
        for factor in ["1", "inf"] {
            try cli.write("[history]\nfile = \"runs.ndjson\"\nfactor = \(factor)\n", to: "fanout.toml")
            let config = try cli.run("history")
            #expect(
                config.code == 2
                    && config.stderr.contains(
                        "fanout.toml:3: [history] factor = \(factor): expected a finite number above 1"),
                "\(config.stderr)")
        }
        #expect(try cli.read("runs.ndjson") == before)
    }
}
