import FanoutTestSupport
import Foundation
import Testing

/// The `fanout-check` hook of `.pre-commit-hooks.yaml`, run by the real pre-commit on a repository that commits a
/// drifted and a clean export (docs/reports.md "pre-commit"): `try-repo` fails on the drifted one and passes on the clean
/// one, and a config's args (schema, fail-on) reach `fanout check`.
@Suite struct PreCommitHookTests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    /// Runs `executable arguments…` in `folder` of `cli`, with the built fanout first on PATH, git's identity set,
    /// and pre-commit's cache inside the test's folder, so that nothing is left in the home folder.
    static func run(_ cli: CLI, _ folder: String, _ executable: String, _ arguments: [String]) throws -> CLI.Result {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let environment = [
            "PATH": CLI.binary.deletingLastPathComponent().path + ":" + path,
            "PRE_COMMIT_HOME": cli.url("pre-commit-cache").path,
            "GIT_AUTHOR_NAME": "Fanout Tests", "GIT_AUTHOR_EMAIL": "tests@fanout.invalid",
            "GIT_COMMITTER_NAME": "Fanout Tests", "GIT_COMMITTER_EMAIL": "tests@fanout.invalid",
            "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
        ]
        if executable == "python" {
            return try runProcess(
                URL(fileURLWithPath: ConsumerPython.path), ["-m", "pre_commit"] + arguments, in: cli.url(folder),
                environment: environment)
        }
        return try runTool(executable, arguments, in: cli.url(folder), environment: environment)
    }

    /// A git repository holding the hook as this repository publishes it (its two files), committed: what a user's
    /// `repo:` clones.
    static func hookRepository(_ cli: CLI) throws -> String {
        for file in [".pre-commit-hooks.yaml", "scripts/pre-commit/fanout-check"] {
            let target = cli.url("hooks/\(file)")
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: CLI.repository.appendingPathComponent(file), to: target)
        }
        for command in [["init", "-q"], ["add", "."], ["commit", "-q", "-m", "hooks"]] {
            try #require(try run(cli, "hooks", "git", command).code == 0)
        }
        return try run(cli, "hooks", "git", ["rev-parse", "HEAD"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: ConsumerPython.has("pre_commit"), "needs pre-commit: make sql-deps (or FANOUT_SQL_PYTHON)"))
    func tryRepoFailsOnTheDriftedExportAndPassesOnTheCleanOne() throws {
        let cli = try CLI()
        let commit = try Self.hookRepository(cli)
        // The project: a drifted fixture (the demo), a clean one (generated without defects, gzip), and a JSON file
        // that is no export, which the config's `files` leaves out.
        try FileManager.default.createDirectory(at: cli.url("project/fixtures"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.demo, toPath: cli.url("project/fixtures/drifted.json").path)
        try #require(
            try cli.run("generate", "--users", "12", "--seed", "4", "--out", "project/fixtures/clean.json").code == 0)
        try #require(try runTool("gzip", ["project/fixtures/clean.json"], in: cli.folder).code == 0)
        try cli.write("{\"name\": \"app\"}\n", to: "project/package.json")
        for command in [["init", "-q"], ["add", "."], ["commit", "-q", "-m", "fixtures"]] {
            try #require(try Self.run(cli, "project", "git", command).code == 0)
        }

        let drifted = try Self.run(
            cli, "project", "python", ["try-repo", "../hooks", "fanout-check", "--files", "fixtures/drifted.json"])
        #expect(drifted.code == 1, "\(drifted.stdout)\(drifted.stderr)")
        #expect(drifted.stdout.contains("fanout check") && drifted.stdout.contains("Failed"), "\(drifted.stdout)")
        #expect(drifted.stdout.contains("like-count-mismatch"), "the report is shown: \(drifted.stdout)")
        let clean = try Self.run(
            cli, "project", "python", ["try-repo", "../hooks", "fanout-check", "--files", "fixtures/clean.json.gz"])
        #expect(clean.code == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("Passed"), "\(clean.stdout)")

        // A config as a user writes it: the schema and fail-on as args, the fixtures folder as files.
        func config(_ args: String) throws -> CLI.Result {
            try cli.write(
                """
                repos:
                  - repo: ../hooks
                    rev: \(commit)
                    hooks:
                      - id: fanout-check
                        files: ^fixtures/.*\\.json(\\.gz)?$
                        args: [\(args)]

                """, to: "project/.pre-commit-config.yaml")
            return try Self.run(cli, "project", "python", ["run", "--all-files"])
        }
        let strict = try config("--schema=makestagram, --fail-on=warning")
        #expect(strict.code == 1, "\(strict.stdout)\(strict.stderr)")
        #expect(strict.stdout.contains("drifted.json") && !strict.stdout.contains("package.json"), "\(strict.stdout)")
        let lenient = try config("--schema=makestagram, --fail-on=never")
        #expect(lenient.code == 0, "--fail-on reaches check: \(lenient.stdout)\(lenient.stderr)")
        let unknown = try config("--schema=no-such-app")
        #expect(unknown.code == 1 && unknown.stdout.contains("no-such-app"), "\(unknown.stdout)")
        // An option and its value as two args: the value would be taken for a file, so the hook refuses it.
        let split = try config("--schema, makestagram")
        #expect(split.code == 1 && split.stdout.contains("--name=value"), "\(split.stdout)")
    }

    @Test func theHookSaysWhenFanoutIsMissing() throws {
        let cli = try CLI()
        let script = CLI.repository.appendingPathComponent("scripts/pre-commit/fanout-check").path
        let missing = try runProcess(
            URL(fileURLWithPath: script), ["x.json"], in: cli.folder, environment: ["FANOUT": "no-such-fanout"])
        #expect(missing.code == 2 && missing.stderr.contains("no no-such-fanout on PATH"), "\(missing.stderr)")
        try FileManager.default.copyItem(atPath: Self.demo, toPath: cli.url("a.json").path)
        let two = try runProcess(
            URL(fileURLWithPath: script), ["-q", "a.json", "a.json"], in: cli.folder,
            environment: ["FANOUT": CLI.binary.path])
        #expect(two.code == 1 && two.stdout.components(separatedBy: "5 errors").count == 3, "\(two.stdout)")
    }
}
