import Foundation
import Testing

/// Two builds of the same input are byte-identical: no build time, no thread order, no hash-seed order leaks out.
@Suite struct DeterministicBuildTests {
    @Test func twoBuildsOfTheSameExportAreByteIdentical() throws {
        let cli = try CLI()
        #expect(
            try cli.run("generate", "--users", "80", "--seed", "21", "--defects", "10", "--out", "export.json").code
                == 0)
        for site in ["one", "two"] {
            let build = try cli.run(
                "build", "export.json", "--out", site, "--per-page", "6", "--base-url", "https://x.example/")
            #expect(build.code == 0, "\(build.stderr)")
        }
        let files = cli.files(under: "one")
        #expect(files == cli.files(under: "two"))
        #expect(
            files.contains("sitemap.xml") && files.contains { $0.hasSuffix("/feed.xml") }
                && files.contains("report.html"))
        for file in files {
            let a = try Data(contentsOf: cli.url("one/\(file)")), b = try Data(contentsOf: cli.url("two/\(file)"))
            #expect(a == b, "\(file) differs between two builds")
        }
    }
}
