import FanoutTestSupport
import Foundation

/// The Python whose packages read Fanout's outputs as their consumers do: `jsonschema` (GitLab Code Quality, JSON
/// Feed), `feedparser_rs` (JSON Feed, as a feed reader parses it) and `pre-commit` (the hook). `make sql-deps`
/// installs them in .build/sql-venv beside the SQL engines, so that `make test` has them on a fresh machine;
/// `FANOUT_SQL_PYTHON` names another Python.
enum ConsumerPython {
    static let path =
        ProcessInfo.processInfo.environment["FANOUT_SQL_PYTHON"]
        ?? CLI.repository.appendingPathComponent(".build/sql-venv/bin/python").path

    /// Whether that Python imports every one of `modules`: tests that need them skip with the reason elsewhere.
    static func has(_ modules: String...) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: path) else { return false }
        let probe = try? runProcess(
            URL(fileURLWithPath: path), ["-c", modules.map { "import \($0)" }.joined(separator: "; ")])
        return probe?.code == 0
    }

    /// Runs `python arguments…` in `cli`'s folder.
    static func run(_ cli: CLI, _ arguments: [String], environment: [String: String] = [:]) throws -> CLI.Result {
        try runProcess(URL(fileURLWithPath: path), arguments, in: cli.folder, environment: environment)
    }
}
