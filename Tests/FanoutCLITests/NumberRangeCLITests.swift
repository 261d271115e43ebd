import FanoutTestSupport
import Foundation
import Testing

/// Every numeric option and setting out of its range, through the command line: exit 2 with a message that gives
/// the range, never a trap, a signal or a run that does not end (docs/commands.md "Numbers").
@Suite struct NumberRangeCLITests {
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
    static let huge = String(Int.max)

    /// A command line and the text its message must hold.
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let expected: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let options: [Case] = [
        Case(arguments: ["build", demo, "--out", "site", "--per-page", huge], expected: "from 1 to 100,000"),
        Case(arguments: ["build", demo, "--out", "site", "--per-page", "0"], expected: "from 1 to 100,000"),
        Case(arguments: ["serve", demo, "--port", "0", "--per-page", huge], expected: "from 1 to 100,000"),
        Case(arguments: ["serve", demo, "--port", "70000"], expected: "from 0 to 65,535"),
        Case(arguments: ["generate", "--users", huge, "--out", "x.json"], expected: "from 1 to 10,000,000"),
        Case(arguments: ["generate", "--users", "0", "--out", "x.json"], expected: "from 1 to 10,000,000"),
        // Too large to be an Int at all: the range is still given.
        Case(arguments: ["generate", "--users", "99999999999999999999", "--out", "x.json"], expected: "to 10,000,000"),
        Case(
            arguments: ["generate", "--users", "10", "--defects", huge, "--out", "x.json"],
            expected: "from 0 to 1,000,000"),
        Case(
            arguments: ["generate", "--users", "10", "--defects=-1", "--out", "x.json"], expected: "from 0 to 1,000,000"
        ),
        Case(arguments: ["tables", demo, "--out", "t", "--rows-per-file", huge], expected: "from 1 to 1,000,000,000"),
        Case(arguments: ["tables", demo, "--out", "t", "--rows-per-file", "0"], expected: "from 1 to 1,000,000,000"),
        Case(
            arguments: ["check", demo, "--max-per-rule", huge],
            expected: "all or a whole number from 1 to 1,000,000,000"),
        Case(
            arguments: ["check", demo, "--max-per-rule", "0"], expected: "all or a whole number from 1 to 1,000,000,000"
        ),
        Case(arguments: ["diff", demo, demo, "--max-per-rule", huge], expected: "from 1 to 1,000,000,000"),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: options)
    func optionOutOfRange(_ test: Case) throws {
        let cli = try CLI()
        let result = try cli.run(test.arguments)
        #expect(result.code == 2, "exit \(result.code): \(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        #expect(result.stderr.contains("expected"), "\(result.stderr)")
        #expect(result.stderr.contains(test.expected), "\(result.stderr)")
        // Refused before anything is read or written.
        #expect(cli.files(under: ".").isEmpty, "\(cli.files(under: "."))")
    }

    /// A `fanout.toml` setting and the message it must get.
    static let settings: [Case] = [
        Case(
            arguments: ["per_page = \(huge)"],
            expected: "fanout.toml:1: per_page = \(huge): expected a whole number from 1 to 100,000"),
        Case(
            arguments: ["[history]", "file = \"h.ndjson\"", "window = \(huge)"],
            expected: "fanout.toml:3: [history] window = \(huge): expected a whole number from 3 to 10,000 (runs)"),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: settings)
    func settingOutOfRange(_ test: Case) throws {
        let cli = try CLI()
        try cli.write(test.arguments.joined(separator: "\n") + "\n", to: "fanout.toml")
        for command in [["build", Self.demo, "--out", "site"], ["check", Self.demo]] {
            let result = try cli.run(command)
            #expect(result.code == 2, "\(command[0]): exit \(result.code): \(result.stderr)")
            #expect(result.stderr.contains(test.expected), "\(command[0]): \(result.stderr)")
            #expect(!cli.exists("site"))
        }
    }

    /// The largest value of each range is taken, and the command ends normally.
    @Test(.timeLimit(.minutes(1)))
    func largestValuesRun() throws {
        let cli = try CLI()
        let build = try cli.run("build", Self.demo, "--out", "site", "--per-page", "100000")
        #expect(build.code == 0, "\(build.stderr)")
        let check = try cli.run("check", Self.demo, "--max-per-rule", "1000000000")
        #expect(check.code == 0 || check.code == 1, "\(check.stderr)")
        let tables = try cli.run("tables", Self.demo, "--out", "t", "--rows-per-file", "1000000000")
        #expect(tables.code == 0, "\(tables.stderr)")
    }
}
