import FanoutCore
import FanoutJSON
import Foundation
import Testing

@testable import FanoutReports
@testable import FanoutTemplates

/// What CI tools need from the reports (docs/reports.md): SARIF that GitHub accepts, JUnit that Jenkins' schema
/// accepts, locations in the export, a text report that reads well at a terminal and in a log.
@Suite struct CIReportTests {
    static func located(_ finding: Finding, _ line: Int, _ column: Int, file: String = "backups/export.json") -> Finding
    {
        var located = finding
        located.location = SourceLocation(file: file, line: line, column: column)
        return located
    }

    static func sarif(
        _ result: AuditResult, info: ReportInfo = SampleAudit.info, maximumResults: Int = SARIFReport.maximumResults
    ) throws -> [String: Any] {
        let text = SARIFReport.render(result, info: info, maximumResults: maximumResults)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require((log["runs"] as? [[String: Any]])?.first)
    }

    static func physical(_ result: [String: Any]) -> (uri: String?, line: Int?, column: Int?) {
        let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        let region = location?["region"] as? [String: Any]
        return (
            (location?["artifactLocation"] as? [String: Any])?["uri"] as? String,
            region?["startLine"] as? Int, region?["startColumn"] as? Int
        )
    }

    @Test func sarifResultsPointAtTheirLineAndColumn() throws {
        var findings = SampleAudit.mixed.findings
        findings[0] = Self.located(findings[0], 1234, 17)
        findings[3] = Self.located(findings[3], 7, 3, file: "export/Post.json")
        let run = try Self.sarif(SampleAudit.result(findings))
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let results = try #require(run["results"] as? [[String: Any]])
        let first = Self.physical(results[0])
        #expect(first.uri == "backups/export.json" && first.line == 1234 && first.column == 17)
        let parse = Self.physical(results[3])
        #expect(parse.uri == "export/Post.json" && parse.line == 7 && parse.column == 3)
        let unlocated = Self.physical(results[1])
        #expect(unlocated.uri == "backups/export.json" && unlocated.line == 1 && unlocated.column == nil)
    }

    @Test func sarifFromStandardInputStillHasAnArtifact() throws {
        for name in ["-", "standard input"] {
            let run = try Self.sarif(SampleAudit.mixed, info: ReportInfo(exportName: name, schemaName: "makestagram"))
            let results = try #require(run["results"] as? [[String: Any]])
            #expect(!results.isEmpty)
            for result in results {
                let location = Self.physical(result)
                #expect(location.uri == SARIFReport.standardInputURI && location.line == 1, "\(name)")
            }
        }
    }

    @Test func primaryLocationLineHashComesFromRuleAndPath() throws {
        var findings = SampleAudit.mixed.findings
        // The same rule and path on another line, or with another message, keeps its hash.
        findings[1] = Self.located(findings[1], 99, 1)
        let results = try #require(try Self.sarif(SampleAudit.result(findings))["results"] as? [[String: Any]])
        let hashes = results.map { ($0["partialFingerprints"] as? [String: String])?["primaryLocationLineHash"] }
        #expect(hashes.allSatisfy { $0 != nil })
        #expect(hashes[0] == hashes[1])
        #expect(hashes[0] == Fingerprint.of(rule: "like-count-mismatch", path: "posts/u1/p1/like_count") + ":1")
        #expect(Set(hashes).count == 5)
    }

    @Test func sarifKeepsTheMostSevereResultsAndSaysHowManyWereLeftOut() throws {
        #expect(SARIFReport.maximumResults == 25_000)
        let findings = [
            SampleAudit.finding("push-id-time", .info, "posts/a/created_at"),
            SampleAudit.finding("timeline-stale", .warning, "timeline/u/a"),
            SampleAudit.finding("like-count-mismatch", .error, "posts/b/like_count"),
            SampleAudit.finding("timeline-stale", .warning, "timeline/u/b"),
            SampleAudit.finding("like-count-mismatch", .error, "posts/c/like_count"),
        ]
        let run = try Self.sarif(SampleAudit.result(findings), maximumResults: 3)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(
            results.map { $0["level"] as? String } == ["warning", "error", "error"],
            "both errors, then the first warning, in report order")
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        let notes = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        let text = try #require((notes.first?["message"] as? [String: Any])?["text"] as? String)
        #expect(notes.count == 1 && text.hasPrefix("2 of 5 results left out"), "\(text)")
        #expect((run["properties"] as? [String: Any])?["resultsOmitted"] as? Int == 2)

        let all = try Self.sarif(SampleAudit.result(findings))
        #expect((all["results"] as? [Any])?.count == 5)
        #expect(((all["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"]) == nil)
    }

    @Test func junitTestsuitesHasOnlyTheAttributesJenkinsAccepts() throws {
        let xml = JUnitReport.render(SampleAudit.mixed, info: SampleAudit.info)
        let root = try #require(xml.split(separator: "\n").first { $0.hasPrefix("<testsuites") })
        // junit-10.xsd: name, time, tests, failures, errors.
        let attributes = Set(root.matches(of: /(\w+)="/).map { String($0.output.1) })
        #expect(attributes.isSubset(of: ["name", "time", "tests", "failures", "errors"]), "\(root)")
        #expect(xml.contains("skipped=\"1\""), "skipped rules are still counted, on their own suites")
    }

    @Test func jsonFindingsCarryTheirLocation() throws {
        var findings = SampleAudit.mixed.findings
        findings[0] = Self.located(findings[0], 1234, 17)
        let text = JSONReport.render(SampleAudit.result(findings), info: SampleAudit.info)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["version"] as? Int == 1)
        let listed = try #require(json["findings"] as? [[String: Any]])
        #expect(listed[0]["line"] as? Int == 1234 && listed[0]["column"] as? Int == 17)
        #expect(listed[0]["file"] as? String == "backups/export.json")
        #expect(listed[1]["line"] == nil && listed[1]["column"] == nil)
    }

    @Test func textStartsWithTheSummaryAndEndsWithItsLine() throws {
        var findings = SampleAudit.mixed.findings
        findings[0] = Self.located(findings[0], 1234, 17, file: "export.json")
        let result = SampleAudit.result(findings)
        let text = TextReport.render(result, info: SampleAudit.info)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let summary = TextReport.summaryLine(result, info: SampleAudit.info)
        #expect(lines.first == summary)
        #expect(lines.dropLast().last == summary, "the summary line again, last")
        #expect(lines[1] == "  error   3  like-count-mismatch")
        #expect(lines.contains("  skipped    like-mirror-missing: no mirror"))
        #expect(text.contains("  export.json:1234:17: posts/u1/p1/like_count: stored 7"), "file:line:column first")
        // The findings come after the summary block, grouped by rule.
        let header = try #require(lines.firstIndex(of: "like-count-mismatch (error, 3 findings)"))
        #expect(header > lines.firstIndex(of: "  skipped    like-mirror-missing: no mirror")!)
    }

    @Test func textListsAtMostNPerRuleAndCountsTheRest() {
        let many = (0..<3_000).map { SampleAudit.finding("like-count-mismatch", .error, "posts/u/p\($0)/like_count") }
        let result = SampleAudit.result(many)
        let text = TextReport.render(result, info: SampleAudit.info, options: TextReport.Options(maxPerRule: 20))
        #expect(text.components(separatedBy: ": something is off").count - 1 == 20)
        #expect(text.contains("  … and 2,980 more (--max-per-rule all lists them)\n"))
        #expect(text.contains("like-count-mismatch (error, 3,000 findings)"))
        #expect(text.hasPrefix("3,000 errors, 0 warnings, 0 info"))
        let all = TextReport.render(result, info: SampleAudit.info)
        #expect(
            all.components(separatedBy: ": something is off").count - 1 == 3_000
                && !all.contains("more (--max-per-rule"))
    }

    @Test func quietPrintsOnlyTheSummary() {
        let text = TextReport.render(
            SampleAudit.mixed, info: SampleAudit.info, options: TextReport.Options(quiet: true))
        #expect(!text.contains("something is off") && !text.contains("(error, 3 findings)"))
        #expect(
            text.hasPrefix(
                TextReport.summaryLine(SampleAudit.mixed, info: SampleAudit.info)
                    + "\n  error   3  like-count-mismatch\n"))
        #expect(text.split(separator: "\n").count == 1 + 4 + 1, "the line, four rules with findings, one skipped")
    }

    @Test func colourBySeverityOnlyWhenAsked() {
        let plain = TextReport.render(SampleAudit.mixed, info: SampleAudit.info)
        #expect(!plain.contains("\u{1B}"))
        let coloured = TextReport.render(
            SampleAudit.mixed, info: SampleAudit.info, options: TextReport.Options(color: true))
        #expect(coloured.contains("\u{1B}[1;31mlike-count-mismatch (error, 3 findings)\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[33mwarning \u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[1;36mpush-id-time (info, 1 finding)\u{1B}[0m"))
        #expect(
            coloured.hasPrefix(
                "\u{1B}[31m4 errors\u{1B}[0m, \u{1B}[33m1 warning\u{1B}[0m, \u{1B}[36m1 info\u{1B}[0m from"))
        // Data from the export is escaped whether or not colours are on: only Fanout's own sequences remain.
        #expect(!coloured.contains("\u{1}"))
    }

    @Test func textEscapesExpectedAndActualValues() {
        var finding = SampleAudit.finding("poster-copy-stale", .warning, "posts/u/p/poster/username")
        finding.expected = .string("next\u{85}line\u{2028}sep\u{7F}")
        finding.actual = .string("a")
        let text = TextReport.render(SampleAudit.result([finding]), info: SampleAudit.info)
        #expect(text.contains("expected \"next\\u{85}line\\u{2028}sep\\u{7f}\", actual \"a\""), "\(text)")
    }

    @Test func githubSaysWhatTheBaselineHidAndFixed() {
        var info = SampleAudit.info
        info.baseline = BaselineOutcome(hidden: 4, fixed: [BaselineEntry(rule: "follow-self", path: "following/u/u")])
        let lines = GitHubReport.render(SampleAudit.mixed, info: info).split(separator: "\n")
        let baseline = lines.filter { $0.contains("baseline") }
        #expect(
            baseline == ["::notice title=fanout baseline::baseline: 4 findings hidden, 1 entry fixed (no longer found)"]
        )
        #expect(!GitHubReport.render(SampleAudit.mixed, info: SampleAudit.info).contains("baseline"))
    }

    @Test func thousandsSeparators() {
        #expect(CountText.grouped(0) == "0" && CountText.grouped(999) == "999" && CountText.grouped(1_000) == "1,000")
        #expect(
            CountText.grouped(2_980) == "2,980" && CountText.grouped(423_253) == "423,253"
                && CountText.grouped(-1_234_567) == "-1,234,567")
    }
}
