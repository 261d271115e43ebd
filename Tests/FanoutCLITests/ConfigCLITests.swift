import Foundation
import Testing

/// The site project's fanout.toml: rule settings and fail_on for check and build, overridden by the command line.
@Suite struct ConfigCLITests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    @Test func checkAppliesTheProjectFileAndTheCommandLineOverridesIt() throws {
        let cli = try CLI()
        #expect(try cli.run(["check", Self.demo]).code == 1)
        try cli.write(
            """
            fail_on = "never"

            [rules]
            like-count-mismatch = "off"
            timeline-stale = "error"
            """, to: "fanout.toml")
        let (code, findings, report) = try cli.jsonReport(Self.demo)
        #expect(code == 0, "fail_on = never")
        #expect(!findings.contains { $0["rule"] as? String == "like-count-mismatch" })
        #expect(findings.first { $0["rule"] as? String == "timeline-stale" }?["severity"] as? String == "error")
        let skipped = (report["summary"] as! [String: Any])["rules_skipped"] as! [[String: String]]
        #expect(skipped.contains { $0["rule"] == "like-count-mismatch" })

        let overridden = try cli.jsonReport(
            Self.demo, ["--rule", "like-count-mismatch=warning", "--fail-on", "warning"])
        #expect(overridden.code == 1)
        #expect(
            overridden.findings.first { $0["rule"] as? String == "like-count-mismatch" }?["severity"] as? String
                == "warning")
    }

    @Test func theExportCanComeFromTheProjectFileAndConfigNamesAnotherFile() throws {
        let cli = try CLI()
        try cli.write(try MiniExport.makestagram.text(), to: "project/data/export.json")
        try cli.write("export = \"data/export.json\"\n", to: "project/site.toml")
        let result = try cli.run(["check", "--config", "project/site.toml"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("on project/data/export.json"))
        let missing = try cli.run(["check", Self.demo, "--config", "nope.toml"])
        #expect(missing.code == 2 && missing.stderr.contains("nope.toml: cannot read"))
    }

    @Test func aBrokenProjectFileIsAUsageErrorNamingFileLineAndKey() throws {
        let cli = try CLI()
        try cli.write("title = \"Feeds\"\n\n[rules]\nlike-count-mismatch = \"loud\"\n", to: "fanout.toml")
        let result = try cli.run(["check", Self.demo, "--output", "report.txt"])
        #expect(result.code == 2)
        #expect(
            result.stderr
                == "Error: fanout.toml:4: [rules] like-count-mismatch = \"loud\": expected off, info, warning or error\n"
        )
        #expect(!cli.exists("report.txt"))
        let build = try cli.run(["build", Self.demo, "--out", "site"])
        #expect(build.code == 2 && build.stderr.contains("fanout.toml:4:"))
        #expect(!cli.exists("site"))
    }

    @Test func buildReadsFailOnAndRulesToo() throws {
        let cli = try CLI()
        #expect(try cli.run(["build", Self.demo, "--out", "site"]).code == 0, "build defaults to never")
        try cli.write("fail_on = \"warning\"\n", to: "fanout.toml")
        #expect(try cli.run(["build", Self.demo, "--out", "site"]).code == 1)
        #expect(try cli.run(["build", Self.demo, "--out", "site", "--fail-on", "never"]).code == 0)
        try cli.write(
            "fail_on = \"warning\"\n[rules]\n"
                + [
                    "like-count-mismatch", "like-unknown-user", "follow-mirror-missing",
                    "timeline-missing", "timeline-poster", "timeline-stale", "poster-copy-stale",
                ].map { "\($0) = \"info\"" }
                .joined(separator: "\n"), to: "fanout.toml")
        #expect(try cli.run(["build", Self.demo, "--out", "site"]).code == 0)
        let report = try cli.read("site/report.json")
        #expect(report.contains("\"severity\": \"info\"") && !report.contains("\"severity\": \"error\""))
    }
}
