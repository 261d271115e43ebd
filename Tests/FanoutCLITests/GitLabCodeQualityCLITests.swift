import FanoutTestSupport
import Foundation
import Testing

/// `check --format gitlab` through the binary, as a GitLab job runs it (docs/reports.md "GitLab Code Quality"):
/// valid against the issue schema written from GitLab's documentation, fingerprints stable across runs and unique,
/// each issue at its finding's line, and `report` rendering the same from a JSON report.
@Suite struct GitLabCodeQualityCLITests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
    static let schema = CLI.repository.appendingPathComponent("Tests/Schemas/gitlab-code-quality.json").path
    static let validator = CLI.repository.appendingPathComponent("scripts/validate/gitlab_code_quality_check.py").path

    static func issues(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text.prefix(200))")
    }

    @Test(.enabled(if: ConsumerPython.has("jsonschema"), "needs jsonschema: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func reportsValidateAgainstTheSchemaWithUniqueFingerprints() throws {
        let cli = try CLI()
        try FileManager.default.copyItem(atPath: Self.demo, toPath: cli.url("demo.json").path)
        try #require(
            try cli.run("generate", "--users", "150", "--seed", "8", "--defects", "120", "--out", "g.json").code == 0)
        try FileManager.default.copyItem(
            at: CLI.repository.appendingPathComponent("Tests/Fixtures/reports-hostile-export.json"),
            to: cli.url("hostile.json"))
        var outputs: [String] = []
        for (name, export) in [("demo", "demo.json"), ("generated", "g.json"), ("hostile", "hostile.json")] {
            let run = try cli.run(["check", export, "--format", "gitlab", "--output", "\(name).gitlab.json"])
            #expect(run.code == 1, "\(name): \(run.stderr)")
            outputs.append("\(name).gitlab.json")
        }
        let piped = try cli.run(
            ["check", "-", "--format", "gitlab", "--fail-on", "never"], stdin: Data(contentsOf: cli.url("demo.json")))
        try cli.write(piped.stdout, to: "stdin.gitlab.json")
        let validated = try ConsumerPython.run(cli, [Self.validator, Self.schema] + outputs + ["stdin.gitlab.json"])
        #expect(validated.code == 0, "\(validated.stdout)\(validated.stderr)")
        #expect(try Self.issues(cli.read("generated.gitlab.json")).count > 100)
        #expect(
            try Self.issues(piped.stdout).allSatisfy {
                ($0["location"] as? [String: Any])?["path"] as? String == "stdin"
            })

        // The validator is no rubber stamp: a repeated fingerprint, an absolute path and an unknown severity fail.
        var broken = try Self.issues(cli.read("demo.gitlab.json"))
        broken[1]["fingerprint"] = broken[0]["fingerprint"]
        broken[2]["severity"] = "error"
        broken[3]["location"] = ["path": "/abs/demo.json", "lines": ["begin": 1]]
        try cli.write(
            String(decoding: try JSONSerialization.data(withJSONObject: broken), as: UTF8.self), to: "broken.json")
        let refused = try ConsumerPython.run(cli, [Self.validator, Self.schema, "broken.json"])
        #expect(refused.code == 1)
        #expect(
            refused.stdout.contains("repeats") && refused.stdout.contains("'error' is not one of"), "\(refused.stdout)")
        #expect(refused.stdout.contains("3/location/path"), "\(refused.stdout)")
    }

    @Test func fingerprintsAreStableAcrossRunsAndUniquePerFinding() throws {
        let cli = try CLI()
        try #require(
            try cli.run("generate", "--users", "150", "--seed", "9", "--defects", "150", "--out", "g.json").code == 0)
        let first = try cli.run(["check", "g.json", "--format", "gitlab", "--fail-on", "never"])
        let second = try cli.run(["check", "g.json", "--format", "gitlab", "--fail-on", "never"])
        #expect(first.code == 0 && second.code == 0, "\(first.stderr)")
        let prints = try Self.issues(first.stdout).map { $0["fingerprint"] as? String }
        #expect(prints == (try Self.issues(second.stdout).map { $0["fingerprint"] as? String }))
        #expect(prints.count > 100 && Set(prints).count == prints.count)

        // A finding keeps its fingerprint when the export is reformatted (its lines move) and other findings go.
        let (_, findings, _) = try cli.jsonReport("g.json")
        let tree = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("g.json")))
        try cli.write(
            String(
                decoding: try JSONSerialization.data(withJSONObject: tree, options: [.prettyPrinted, .sortedKeys]),
                as: UTF8.self), to: "pretty.json")
        let pretty = try Self.issues(cli.run(["check", "pretty.json", "--format", "gitlab"]).stdout)
        #expect(Set(pretty.map { $0["fingerprint"] as? String }) == Set(prints))
        #expect(pretty.count == findings.count)
    }

    @Test func issuesSitAtTheirFindingsLinesAndSeverities() throws {
        let cli = try CLI()
        try FileManager.default.copyItem(atPath: Self.demo, toPath: cli.url("demo.json").path)
        let (_, findings, _) = try cli.jsonReport("demo.json")
        // An absolute path inside the job's folder is made relative, as GitLab wants it.
        let run = try cli.run(["check", cli.url("demo.json").path, "--format", "gitlab"])
        #expect(run.code == 1, "exits as check does: \(run.stderr)")
        let issues = try Self.issues(run.stdout)
        #expect(issues.count == findings.count && issues.count == 7)
        for (issue, finding) in zip(issues, findings) {
            let location = try #require(issue["location"] as? [String: Any])
            #expect(location["path"] as? String == "demo.json")
            #expect((location["lines"] as? [String: Int])?["begin"] == finding["line"] as? Int)
            #expect(issue["check_name"] as? String == finding["rule"] as? String)
            let severity = ["error": "critical", "warning": "minor", "info": "info"][finding["severity"] as! String]
            #expect(issue["severity"] as? String == severity)
        }
        #expect((issues[0]["location"] as? [String: Any]).flatMap { $0["lines"] as? [String: Int] }?["begin"] == 87)

        // The same from a JSON report (`fanout report`), and with a re-graded rule.
        let regraded = try cli.run(["check", "demo.json", "--format", "gitlab", "--rule", "poster-copy-stale=info"])
        #expect(
            try Self.issues(regraded.stdout).contains {
                $0["check_name"] as? String == "poster-copy-stale" && $0["severity"] as? String == "info"
            })
        try #require(
            try cli.run("check", "demo.json", "--format", "json", "--output", "r.json", "--fail-on", "never").code == 0)
        let rendered = try cli.run(["report", "r.json", "--format", "gitlab"])
        #expect(rendered.code == 1)
        #expect(rendered.stdout == (try cli.run(["check", "demo.json", "--format", "gitlab"]).stdout))
    }

    @Test func diffRefusesTheFormat() throws {
        let cli = try CLI()
        let refused = try cli.run(["diff", Self.demo, Self.demo, "--format", "gitlab"])
        #expect(refused.code == 2 && refused.stdout.isEmpty)
        #expect(
            refused.stderr.contains("--format gitlab: a diff is written as text, json, markdown or html"),
            "\(refused.stderr)")
        let unknown = try cli.run(["check", Self.demo, "--format", "gitlabb"])
        #expect(unknown.code == 2 && unknown.stderr.contains("gitlab"), "\(unknown.stderr)")
    }
}
