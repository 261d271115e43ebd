import FanoutTestSupport
import Foundation
import Testing

/// The CI reports through the binary, as a pipeline runs it (docs/reports.md, "Baselines" too): findings point
/// at their keys in the export, SARIF from standard input has an artifact, the text report's shape at a
/// terminal and in a pipe, baselines, and the errors' style.
@Suite struct CIReportsCLITests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    /// The text at 1-based `line` and `column` (in Unicode scalars) of `text`.
    static func text(at line: Int, _ column: Int, of text: String) -> Substring.UnicodeScalarView {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return Substring("").unicodeScalars }
        return lines[line - 1].unicodeScalars.dropFirst(column - 1)
    }

    /// For every finding of the JSON report, the export's text at its line and column starts with the key of its
    /// first path, or of the nearest ancestor the export has (found independently, with JSONSerialization).
    static func expectFindingsPointAtTheirKeys(_ cli: CLI, export: String, name: String) throws -> Int {
        let (_, findings, _) = try cli.jsonReport(export)
        let text = try String(contentsOfFile: export.hasPrefix("/") ? export : cli.url(export).path, encoding: .utf8)
        let tree = try JSONSerialization.jsonObject(with: Data(text.utf8))
        for finding in findings {
            let path = (finding["paths"] as! [String])[0]
            var node: Any? = tree
            var deepest: String?
            for key in path.split(separator: "/").map(String.init) {
                guard let child = (node as? [String: Any])?[key] else { break }
                node = child
                deepest = key
            }
            let line = try #require(finding["line"] as? Int, "\(path)")
            let column = try #require(finding["column"] as? Int, "\(path)")
            #expect(finding["file"] as? String == name)
            let there = String(String.UnicodeScalarView(Self.text(at: line, column, of: text).prefix(200)))
            let expected = deepest.map { "\"\($0)\"" } ?? "{"
            #expect(there.hasPrefix(expected), "\(path) at \(line):\(column): \(there.prefix(60))")
        }
        return findings.count
    }

    @Test func findingsPointAtTheirKeysInPrettyAndMinifiedExports() throws {
        let cli = try CLI()
        #expect(try Self.expectFindingsPointAtTheirKeys(cli, export: Self.demo, name: Self.demo) == 7)
        try #require(
            try cli.run("generate", "--users", "120", "--seed", "5", "--defects", "60", "--out", "g.json").code == 0)
        #expect(try Self.expectFindingsPointAtTheirKeys(cli, export: "g.json", name: "g.json") > 40)

        let text = try cli.run(["check", Self.demo])
        #expect(
            text.stdout.contains(
                "\n  \(Self.demo):87:9: posts/uidCarol0000000000000000000/-Kfn5tULx2kQ9zPq2Lm7/like_count: post "))
    }

    @Test func sarifFromStandardInputHasAnArtifactAndLines() throws {
        let cli = try CLI()
        let input = try Data(contentsOf: URL(fileURLWithPath: Self.demo))
        func results(_ extra: [String]) throws -> [[String: Any]] {
            let result = try cli.run(["check", "-", "--format", "sarif"] + extra, stdin: input)
            let log = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
            return try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        }
        func physical(_ result: [String: Any]) -> (String?, Int?) {
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            return (
                (location?["artifactLocation"] as? [String: Any])?["uri"] as? String,
                (location?["region"] as? [String: Any])?["startLine"] as? Int
            )
        }
        let plain = try results([])
        #expect(plain.count == 7)
        #expect(plain.allSatisfy { physical($0).0 == "stdin" })
        #expect(physical(plain[0]).1 == 87)
        let named = try results(["--stdin-filename", "backups/demo.json"])
        #expect(named.allSatisfy { physical($0).0 == "backups/demo.json" })
        #expect(named.map { physical($0).1 } == plain.map { physical($0).1 })

        let misused = try cli.run(["check", Self.demo, "--stdin-filename", "x.json"])
        #expect(misused.code == 2 && misused.stderr.hasPrefix("Error: --stdin-filename x.json names standard input"))
    }

    @Test func writingABaselineExitsZero() throws {
        let cli = try CLI()
        let write = try cli.run(["check", Self.demo, "--write-baseline", "baseline.json"])
        #expect(write.code == 0, "it records, it does not judge: \(write.stderr)")
        #expect(write.stdout.contains("like-count-mismatch (error, 1 finding)"), "the report is still printed")
        #expect(cli.exists("baseline.json"))
        #expect(try cli.run(["check", Self.demo]).code == 1, "without it, the same findings fail the run")
    }

    @Test func githubFormatGivesOneNoticeForTheBaseline() throws {
        let cli = try CLI()
        try cli.write(
            """
            {"findings": [{"path": "followers/uidCarol0000000000000000000/uidDave0000000000000000000", "rule": "follow-mirror-missing"},
                          {"path": "gone/path", "rule": "like-count-mismatch"}], "tool": "fanout", "version": 1}
            """, to: "baseline.json")
        let result = try cli.run(["check", Self.demo, "--baseline", "baseline.json", "--format", "github"])
        let notices = result.stdout.split(separator: "\n").filter { $0.contains("baseline") }
        #expect(
            notices == ["::notice title=fanout baseline::baseline: 1 finding hidden, 1 entry fixed (no longer found)"])
        #expect(result.stdout.split(separator: "\n").count == 7, "six annotations and the notice")
    }

    /// Runs `fanout ARGS` under a pseudo-terminal (util-linux `script`), as at a terminal; stderr is dropped.
    func atTerminal(_ cli: CLI, _ arguments: String, environment: String = "TERM=xterm") throws -> String {
        let command =
            "cd '\(cli.folder.path)' && env -u NO_COLOR \(environment) '\(CLI.binary.path)' \(arguments) 2>/dev/null"
        let result = try runTool("script", ["-qec", command, "/dev/null"])
        return result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test func atATerminalTwentyPerRuleInColourElsewhereAllAndPlain() throws {
        let cli = try CLI()
        try #require(
            try cli.run("generate", "--users", "300", "--seed", "3", "--defects", "400", "--out", "g.json").code == 0)
        let terminal = try atTerminal(cli, "check g.json")
        #expect(
            terminal.contains("\u{1B}[1;31mlike-count-mismatch (error, 80 findings)\u{1B}[0m"),
            "\(terminal.prefix(300))")
        #expect(terminal.contains("  … and 60 more (--max-per-rule all lists them)\n"))
        #expect(terminal.hasPrefix("\u{1B}[31m360 errors\u{1B}[0m"))

        let noColor = try atTerminal(cli, "check g.json", environment: "TERM=xterm NO_COLOR=1")
        #expect(!noColor.contains("\u{1B}") && noColor.contains("  … and 60 more"))
        let dumb = try atTerminal(cli, "check g.json", environment: "TERM=dumb")
        #expect(!dumb.contains("\u{1B}"))
        let all = try atTerminal(cli, "check g.json --max-per-rule all")
        #expect(!all.contains(" more (--max-per-rule"))

        let piped = try cli.run(["check", "g.json"])
        #expect(!piped.stdout.contains("\u{1B}") && !piped.stdout.contains(" more (--max-per-rule"))
        #expect(
            piped.stdout.components(separatedBy: "\n  g.json:1:").count - 1 == 440, "every finding, each at its place")
        let two = try cli.run(["check", "g.json", "--max-per-rule", "2"])
        #expect(two.stdout.contains("  … and 78 more (--max-per-rule all lists them)\n"))
        #expect(two.stdout.components(separatedBy: "\n  g.json:1:").count - 1 == 10 * 2)
        let zero = try cli.run(["check", "g.json", "--max-per-rule", "0"])
        #expect(
            zero.code == 2 && zero.stderr.hasPrefix("Error: The value '0' is invalid for '--max-per-rule <N>'"),
            "\(zero.stderr)")
    }

    @Test func quietPrintsTheSummaryAndKeepsTheExitCode() throws {
        let cli = try CLI()
        let quiet = try cli.run(["check", Self.demo, "--quiet"])
        #expect(quiet.code == 1)
        let lines = quiet.stdout.split(separator: "\n")
        #expect(lines.first == "5 errors, 2 warnings, 0 info from 19 rules on \(Self.demo) (makestagram layout)")
        #expect(lines.count == 1 + 7 + 2, "the line, seven rules with findings, two skipped: \(quiet.stdout)")
        #expect(!quiet.stdout.contains("expected"))
    }

    @Test func misspelledNamesGetTheNearest() throws {
        let cli = try CLI()
        let cases: [([String], String)] = [
            (
                ["buidl"],
                "Error: unknown command \"buidl\" (did you mean \"build\"?); fanout commands: build, check, diff, documents, export, generate, history, infer, init, report, schemas, serve, sql, tables\n"
            ),
            (
                ["schemas", "shw"],
                "Error: unknown command \"shw\" (did you mean \"show\"?); fanout schemas commands: list, show\n"
            ),
            (
                ["deploy"],
                "Error: unknown command \"deploy\"; fanout commands: build, check, diff, documents, export, generate, history, infer, init, report, schemas, serve, sql, tables\n"
            ),
            (
                ["check", Self.demo, "--schema", "makestagam"],
                "Error: unknown schema \"makestagam\" (did you mean \"makestagram\"?); presets: "
            ),
            (
                ["check", Self.demo, "--rule", "folow-self=off"],
                "Error: --rule folow-self=off: unknown rule \"folow-self\" (did you mean \"follow-self\"?); known rules: "
            ),
            (
                ["check", "--explain", "timeline-stal"],
                "Error: --explain timeline-stal: unknown rule \"timeline-stal\" (did you mean \"timeline-stale\"?)"
            ),
            (["schemas", "show", "instaclon"], "Error: unknown schema \"instaclon\" (did you mean \"instaclone\"?)"),
        ]
        for (arguments, message) in cases {
            let result = try cli.run(arguments)
            #expect(result.code == 2 && result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try cli.run(["help", "check"]).code == 0, "ArgumentParser's help subcommand still works")
        try cli.write("[rules]\nlike-count-mismatc = \"off\"\n", to: "p/fanout.toml")
        let config = try cli.run(["check", Self.demo], in: "p")
        #expect(
            config.stderr.hasPrefix(
                "Error: fanout.toml:2: [rules] like-count-mismatc: unknown rule \"like-count-mismatc\" (did you mean \"like-count-mismatch\"?)"
            ), "\(config.stderr)")
    }

    @Test func everyErrorStartsLikeTheArgumentParsers() throws {
        let cli = try CLI()
        try cli.write("{\"users\": [}", to: "bad.json")
        let runs: [[String]] = [
            ["check", "bad.json"],  // input
            ["check", "missing.json"],  // unreadable
            ["check", Self.demo, "--format", "json", "--format", "sarif"],  // usage, found by Fanout
            ["check", Self.demo, "--baseline", "nope.json"],  // baseline
            ["build", Self.demo, "--per-page", "0"],  // usage in build
            ["check", Self.demo, "--fail-on", "eror"],  // ArgumentParser's own
            ["generate", "--users", "0", "--out", "x.json"],  // ArgumentParser's validation
        ]
        for arguments in runs {
            let result = try cli.run(arguments)
            #expect(result.code == 2 && result.stderr.hasPrefix("Error: "), "\(arguments): \(result.stderr)")
        }
    }
}
