import FanoutTestSupport
import Foundation
import Testing

/// `fanout --version` prints the repository's VERSION file and the commit `make dist` built, "unknown" for a build
/// without it (docs/ci.md "The release archive").
@Suite struct VersionTests {
    @Test func printsTheVersionFileAndTheCommit() throws {
        let cli = try CLI()
        let version = try String(contentsOf: repositoryFile("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try cli.run("--version")
        #expect(result.code == 0 && result.stderr.isEmpty)
        let line = result.stdout.trimmingCharacters(in: .newlines)
        let match = try #require(
            line.wholeMatch(of: /fanout (?<version>\S+) \(commit (?<commit>unknown|[0-9a-f]{7,40})\)/))
        #expect(String(match.output.version) == version, "\(line)")
    }
}
