import Foundation
import Testing

/// Inputs kept from fuzzing (`fuzz/regressions/`: crash inputs from `make fuzz`, and the seeds) through the CLI.
///
/// Each must give a defined outcome under every preset: a report (exit 0 or 1) or one `Error: ` line
/// (exit 2), never a crash. A new crash input found by `make fuzz` goes into `fuzz/regressions/`. Reading an
/// export with a schema that does not fit it leaves posts without an owner, which crashed the checks and the
/// site once (`friendlypix-author-not-a-string.json`, `instaclone-read-as-friendlypix.json`).
///
/// The same inputs go to the commands that read the other files a user gives: each as a JSON report
/// (`fanout report`) and as a history (`fanout history`); the templates (`*.mustache`) as a site's templates in
/// `build --templates`, as the partial `post-card` and as every template at once (a template that includes itself
/// is an error, not a stack overflow); the TOML files (`*.toml`) as `--config` and as `--schema`.
@Suite struct FuzzRegressionTests {
    static let folders = ["fuzz/regressions", "fuzz/seeds"].map { CLI.repository.appendingPathComponent($0) }
    static let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path

    /// Every kept input, sorted.
    static func keptFiles() throws -> [String] {
        try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                !$0.hasPrefix(".") && $0 != "README.md"
            }
            .sorted().map { folder.appendingPathComponent($0).path }
        }
    }

    /// A report (exit in `codes`) or one `Error: ` line (exit 2), never a signal.
    static func expectDefined(
        _ result: CLI.Result, _ what: String, codes: Set<Int32> = [0, 1],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            codes.union([2]).contains(result.code), "\(what): exit \(result.code) \(result.stderr)",
            sourceLocation: sourceLocation)
        if result.code == 2 {
            #expect(
                result.stderr.hasPrefix("Error: ") && result.stderr.split(separator: "\n").count == 1,
                "\(what): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func keptInputsAsReportsAndHistories() throws {
        let cli = try CLI()
        let files = try Self.keptFiles()
        #expect(files.contains { $0.hasSuffix("/report-demo.json") } && files.contains { $0.hasSuffix(".ndjson") })
        for file in files {
            for format in ["text", "html"] {
                Self.expectDefined(try cli.run("report", file, "--format", format), "report \(file) --format \(format)")
                Self.expectDefined(
                    try cli.run("history", file, "--format", format), "history \(file) --format \(format)",
                    codes: [0])
            }
            Self.expectDefined(
                try cli.run("report", file, "--format", "markdown", "--format", "junit", "--output", "r.xml"),
                "report \(file) --format markdown, junit")
        }
        // The seeds made by the CLI read as they were written.
        let seeds = CLI.repository.appendingPathComponent("fuzz/seeds")
        #expect(try cli.run("report", seeds.appendingPathComponent("report-demo.json").path).code == 1)
        #expect(try cli.run("history", seeds.appendingPathComponent("history-demo.ndjson").path).code == 0)
    }

    @Test(.timeLimit(.minutes(3)))
    func keptTemplatesAndProjectFiles() throws {
        let files = try Self.keptFiles()
        let templates = files.filter { $0.hasSuffix(".mustache") }
        let projects = files.filter { $0.hasSuffix(".toml") }
        #expect(!templates.isEmpty && projects.contains { $0.hasSuffix("/fanout-demo.toml") })
        let names = try FileManager.default.contentsOfDirectory(
            atPath: CLI.repository.appendingPathComponent("Templates").path
        ).filter { $0.hasSuffix(".mustache") }
        for file in templates {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let cli = try CLI()
            try cli.write(text, to: "partial/post-card.mustache")
            for name in names { try cli.write(text, to: "every/" + name) }
            for folder in ["partial", "every"] {
                Self.expectDefined(
                    try cli.run("build", Self.demo, "--templates", folder, "--out", "site-" + folder),
                    "build with \(file) in \(folder)", codes: [0])
            }
        }
        for file in projects {
            let cli = try CLI()
            Self.expectDefined(try cli.run("check", Self.demo, "--config", file), "check --config \(file)")
            Self.expectDefined(try cli.run("check", Self.demo, "--schema", file), "check --schema \(file)")
        }
    }

    // A hang (an unterminated deflate stream in a zip once caused one) fails, not blocks.
    @Test(.timeLimit(.minutes(3)))
    func keptInputsHaveADefinedOutcome() throws {
        let cli = try CLI()
        let files = try Self.keptFiles()
        #expect(files.count >= 100)
        for file in files {
            // Parse too: a zip seed is a Parse export, and every JSON file read as one is a clear error.
            // The Firestore preset reads the same trees as the others: the kept crash inputs suffice for it.
            let flutter = file.contains("/regressions/") ? ["instagram-flutter"] : []
            for schema in ["makestagram", "instaclone", "friendlypix", "parse"] + flutter {
                let result = try cli.run(["check", file, "--schema", schema, "--format", "json"])
                #expect([0, 1, 2].contains(result.code), "\(file) as \(schema): exit \(result.code) \(result.stderr)")
                if result.code == 2 {
                    #expect(
                        result.stderr.hasPrefix("Error: ") && result.stderr.split(separator: "\n").count == 1,
                        "\(file) as \(schema): \(result.stderr)")
                } else {
                    #expect(
                        (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil,
                        "\(file) as \(schema)")
                }
                // The site too, for the kept inputs (the seeds' pages are covered by the other CLI tests).
                if file.contains("/regressions/") {
                    let build = try cli.run(["build", file, "--schema", schema, "--out", "site"])
                    #expect(
                        [0, 2].contains(build.code), "build \(file) as \(schema): exit \(build.code) \(build.stderr)")
                }
            }
        }
    }
}
