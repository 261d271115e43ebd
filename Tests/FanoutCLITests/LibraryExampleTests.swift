import FanoutCore
import FanoutImport
import FanoutReports
import Foundation
import Testing

/// The library example of docs/library.md ("Using Fanout as a library"), run on the demo export.
///
/// This target is built without `package` access (`packageAccess: false` in Package.swift), and this file imports
/// Fanout's modules plainly, never `@testable`: the example compiles only if the public API suffices, as it must
/// for another package's code.
@Suite struct LibraryExampleTests {
    static let page = CLI.repository.appendingPathComponent("docs/library.md")
    static let heading = "# Using Fanout as a library"
    static let begin = "// docs/library.md example: begin"
    static let end = "// docs/library.md example: end"

    @Test func theManualsExampleGivesTheTimelineAndReportOfTheCommands() throws {
        let path = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        // docs/library.md example: begin
        // nil: detect the layout; or Presets.named("makestagram")
        let dataset = try ExportLoader.load(path: path, schema: nil)
        let derived = DerivedData(dataset)
        var audit = Audit.run(CheckContext(dataset: dataset, derived: derived))
        let alice = dataset.users.firstIndex { $0.username == "alice" }!
        for p in derived.timeline(user: alice) {
            let post = dataset.posts[p]
            print(dataset.key(post.key), derived.likeCount(post: p), post.caption ?? "")
        }
        print("\(audit.findings.count) findings")
        audit.findings = try FindingLocator.locate(audit.findings, inExportAt: path)  // line and column of each
        let info = ReportInfo(exportName: path, schemaName: dataset.schema.name)
        let coverage = ChartsData.timelineCoverage(dataset: dataset, derived: derived)  // summary.timeline_coverage
        let json = try ReportWriter.render(audit, info: info, format: .json, templates: nil, coverage: coverage)
        // docs/library.md example: end

        // Alice's timeline as her timeline page shows it: her posts and carol's and bob's, newest first.
        let timeline = derived.timeline(user: alice)
        #expect(
            timeline.map { dataset.key(dataset.posts[$0].key) } == [
                "-KgAmAunx9kQ9zPq2Lm7", "-Kg2Braxx7kQ9zPq2Lm7", "-Kg0U-K1x6kQ9zPq2Lm7", "-KfrbHYGx3kQ9zPq2Lm7",
                "-Kfn5tULx2kQ9zPq2Lm7", "-KfmfQdQx1kQ9zPq2Lm7", "-Kfm1DtVx0kQ9zPq2Lm7",
            ])
        #expect(timeline.map { derived.likeCount(post: $0) } == [2, 0, 1, 1, 4, 2, 3])
        #expect(dataset.schema.name == "makestagram")

        // The findings and the JSON report are those of `fanout check`.
        let cli = try CLI()
        let text = try cli.run("check", path, "--fail-on", "never")
        #expect(text.code == 0, "\(text.stderr)")
        #expect(audit.findings.count == 7)
        #expect(
            text.stdout.contains(
                "\(audit.count(.error)) errors, \(audit.count(.warning)) warnings, \(audit.count(.info)) info from "))
        let report = try cli.run("check", path, "--format", "json", "--fail-on", "never")
        #expect(report.code == 0, "\(report.stderr)")
        #expect(json == report.stdout)
    }

    /// docs/library.md shows exactly the code the test above runs: its imports are this file's imports of Fanout's
    /// modules, and the rest is the code between the markers, without the test's indentation.
    @Test func theManualShowsTheExampleTheTestRuns() throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let section = try #require(page.range(of: "\(Self.heading)\n"))
        let fence = try #require(page.range(of: "\n```swift\n", range: section.upperBound..<page.endIndex))
        let close = try #require(page.range(of: "\n```\n", range: fence.upperBound..<page.endIndex))
        let block = page[fence.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        let pageImports = block.prefix { $0.hasPrefix("import ") }.map(String.init)
        let pageCode = block.dropFirst(pageImports.count).drop { $0.isEmpty }.map(String.init)

        let source = try String(contentsOfFile: #filePath, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let imports = source.filter { $0.hasPrefix("import Fanout") }.map(String.init)
        let first = try #require(source.firstIndex { $0.trimmingCharacters(in: .whitespaces) == Self.begin })
        let last = try #require(source.firstIndex { $0.trimmingCharacters(in: .whitespaces) == Self.end })
        let indentation = String(source[first].prefix { $0 == " " })
        let code = source[(first + 1)..<last].map { line in
            line.hasPrefix(indentation) ? String(line.dropFirst(indentation.count)) : String(line)
        }

        #expect(pageImports == imports)
        #expect(pageCode == code)
    }
}
