import Foundation
import Testing

/// Inputs kept from fuzzing (`fuzz/regressions/`: crash inputs from `make fuzz`, and the seeds) through the CLI.
///
/// Each must give a defined outcome under every preset: a report (exit 0 or 1) or one `Error: ` line
/// (exit 2), never a crash. A new crash input found by `make fuzz` goes into `fuzz/regressions/`. Reading an
/// export with a schema that does not fit it leaves posts without an owner, which crashed the checks and the
/// site once (`friendlypix-author-not-a-string.json`, `instaclone-read-as-friendlypix.json`).
@Suite struct FuzzRegressionTests {
    static let folders = ["fuzz/regressions", "fuzz/seeds"].map { CLI.repository.appendingPathComponent($0) }

    // A hang (an unterminated deflate stream in a zip once caused one) fails, not blocks.
    @Test(.timeLimit(.minutes(3)))
    func keptInputsHaveADefinedOutcome() throws {
        let cli = try CLI()
        let files = try Self.folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                !$0.hasPrefix(".") && $0 != "README.md"
            }
            .sorted().map { folder.appendingPathComponent($0).path }
        }
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
