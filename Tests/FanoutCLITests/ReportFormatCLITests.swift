import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The CI-native report formats through the CLI: several reports from one read, each well formed.
@Suite struct ReportFormatCLITests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    @Test func severalFormatsFromOneRun() throws {
        let cli = try CLI()
        let result = try cli.run([
            "check", Self.demo, "--format", "junit", "--output", "reports/junit.xml",
            "--format", "sarif", "--output", "reports/fanout.sarif",
            "--format", "json", "--output", "reports/report.json",
            "--format", "markdown", "--output", "reports/report.md",
            "--format", "html", "--output", "reports/report.html", "--format", "github",
        ])
        #expect(result.code == 1)
        #expect(
            cli.files(under: "reports") == ["fanout.sarif", "junit.xml", "report.html", "report.json", "report.md"])
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("::") }, "github goes to stdout")
        #expect(result.stderr.contains("5 errors, 2 warnings"))

        let parser = XMLParser(data: Data(try cli.read("reports/junit.xml").utf8))
        #expect(parser.parse(), "JUnit is well-formed XML")
        let sarif =
            try JSONSerialization.jsonObject(with: Data(try cli.read("reports/fanout.sarif").utf8)) as! [String: Any]
        let results = ((sarif["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]])
        #expect(results.count == 7)
        let report =
            try JSONSerialization.jsonObject(with: Data(try cli.read("reports/report.json").utf8)) as! [String: Any]
        #expect((report["findings"] as! [Any]).count == 7)
        let html = try cli.read("reports/report.html")
        #expect(html.contains("class=\"rule-explanation\"") && html.contains("class=\"fix\""))
    }

    /// The HTML report of `check` draws the same timeline-coverage chart as the site's report page.
    /// `--output /dev/stdout` (a pipe here, as in `check … --output /dev/stdout | jq`) gets the report written into
    /// it, not a file renamed over it (docs/commands.md "How outputs are written").
    @Test func aReportToDevStdoutIsWrittenIntoThePipe() throws {
        let cli = try CLI()
        _ = try cli.run(["check", Self.demo, "--format", "sarif", "--output", "fanout.sarif"])
        let piped = try cli.run(["check", Self.demo, "--format", "sarif", "--output", "/dev/stdout"])
        #expect(piped.code == 1)
        let written = try cli.read("fanout.sarif")
        #expect(!piped.stdout.isEmpty && piped.stdout == written)
        var info = stat()
        #expect(lstat("/dev/stdout", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "/dev/stdout is still a link")
    }

    @Test func checkHTMLReportHasTheSitesCoverageChart() throws {
        let cli = try CLI()
        #expect(try cli.run(["check", Self.demo, "--format", "html", "--output", "report.html"]).code == 1)
        #expect(try cli.run(["build", Self.demo, "--out", "site"]).code == 0)
        func coverageFigure(_ html: String) -> String? {
            guard let caption = html.range(of: "Timeline coverage:"),
                let start = html.range(
                    of: "<figure>", options: .backwards, range: html.startIndex..<caption.lowerBound),
                let end = html.range(of: "</figure>", range: caption.upperBound..<html.endIndex)
            else { return nil }
            return String(html[start.lowerBound..<end.upperBound])
        }
        let checked = try #require(coverageFigure(try cli.read("report.html")), "check's report has the chart")
        #expect(checked.contains("5 of 6 timelines have every stored entry they should."), "\(checked)")
        #expect(checked == coverageFigure(try cli.read("site/report.html")))
    }

    @Test func githubAnnotationsStopAtTenPerSeverity() throws {
        let cli = try CLI()
        #expect(
            try cli.run(["generate", "--users", "300", "--seed", "5", "--defects", "60", "--out", "drift.json"]).code
                == 0)
        let (_, findings, _) = try cli.jsonReport("drift.json")
        let errors = findings.filter { $0["severity"] as? String == "error" }.count
        let warnings = findings.filter { $0["severity"] as? String == "warning" }.count
        #expect(errors > 10 && warnings > 10)
        let github = try cli.run(["check", "drift.json", "--format", "github"])
        #expect(github.code == 1)
        let lines = github.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("::error title=") }.count == 10)
        #expect(lines.filter { $0.hasPrefix("::warning title=") }.count == 10)
        let notice = try #require(lines.last)
        #expect(notice.hasPrefix("::notice title=fanout::\(errors + warnings - 20) more findings"), "\(notice)")
    }

    @Test func reportPairingMistakesAreUsageErrors() throws {
        let cli = try CLI()
        let twoToStdout = try cli.run(["check", Self.demo, "--format", "json", "--format", "sarif"])
        #expect(twoToStdout.code == 2 && twoToStdout.stderr.contains("only one report can go to standard output"))
        let tooManyOutputs = try cli.run([
            "check", Self.demo, "--format", "json", "--output", "a.json", "--output", "b.json",
        ])
        #expect(tooManyOutputs.code == 2)
        let unknown = try cli.run(["check", Self.demo, "--format", "xml"])
        #expect(unknown.code == 2)
        #expect(cli.files(under: ".").isEmpty, "nothing written")
        let textToFile = try cli.run(["check", Self.demo, "--output", "report.txt"])
        #expect(textToFile.code == 1 && textToFile.stdout.isEmpty)
        #expect(try cli.read("report.txt").hasSuffix("(makestagram layout)\n"))
    }

    @Test func explainPrintsARuleAndRejectsUnknownOnes() throws {
        let cli = try CLI()
        let explain = try cli.run(["check", "--explain", "like-count-mismatch"])
        #expect(explain.code == 0)
        #expect(explain.stdout.hasPrefix("like-count-mismatch (default severity: error)"))
        #expect(
            explain.stdout.replacingOccurrences(of: "\n", with: " ").contains("The like set is the source of truth"))
        #expect(explain.stdout.contains("Fix: mechanical"))
        let manual = try cli.run(["check", "--explain", "post-field"])
        #expect(manual.stdout.contains("Fix: none that is mechanical"))
        let unknown = try cli.run(["check", "--explain", "like-count"])
        #expect(unknown.code == 2 && unknown.stderr.contains("unknown rule") && unknown.stdout.isEmpty)
        let missing = try cli.run(["check"])
        #expect(missing.code == 2 && missing.stderr.contains("missing the export"))
    }
}
