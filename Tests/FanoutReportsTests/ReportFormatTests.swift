import FanoutCore
import FanoutJSON
import Foundation
import Testing

@testable import FanoutReports

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A small audit result with repeated paths, hostile text and every severity, for the report formats.
enum SampleAudit {
    static func finding(_ rule: String, _ severity: Severity, _ path: String, _ message: String = "something is off")
        -> Finding
    {
        Finding(
            rule: rule, severity: severity, message: message, paths: [path], expected: 1, actual: 2,
            fix: [PatchEntry(path, 1)])
    }

    static func result(_ findings: [Finding]) -> AuditResult {
        let ids = Set(findings.map(\.rule))
        let run = RuleCatalog.descriptors.filter { ids.contains($0.id) || $0.id == "follow-self" }
        return AuditResult(
            findings: findings, rulesRun: run, skipped: [SkippedRule(rule: "like-mirror-missing", reason: "no mirror")])
    }

    static let mixed = result([
        finding("like-count-mismatch", .error, "posts/u1/p1/like_count", "stored 7, counted 5 (+2) <&> \"quoted\""),
        finding("like-count-mismatch", .error, "posts/u1/p1/like_count", "the same path again"),
        finding(
            "like-count-mismatch", .error, "posts/u1/p1/like_count #2", "a path that looks like a renamed duplicate"),
        finding("key-invalid", .error, "users/bad\u{1}key", "key with a control character"),
        finding("timeline-stale", .warning, "timeline/u2/p1", "line one\nline two\r\n100% stale, really: yes"),
        finding("push-id-time", .info, "posts/u1/p1/created_at"),
    ])

    static let info = ReportInfo(exportName: "backups/export.json", schemaName: "makestagram")
}

/// Collects JUnit test cases as (suite, classname, name, failed).
private final class JUnitCollector: NSObject, XMLParserDelegate {
    var cases: [(suite: String, classname: String, name: String)] = []
    var failures = 0
    var skipped = 0
    private var suite = ""

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "testsuite": suite = attributes["name"] ?? ""
        case "testcase": cases.append((suite, attributes["classname"] ?? "", attributes["name"] ?? ""))
        case "failure": failures += 1
        case "skipped": skipped += 1
        default: break
        }
    }
}

@Suite struct ReportFormatTests {
    @Test func junitIsWellFormedXMLWithUniqueCases() throws {
        let xml = JUnitReport.render(SampleAudit.mixed, info: SampleAudit.info)
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = JUnitCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(xml)")
        let pairs = collector.cases.map { "\($0.classname)|\($0.name)" }
        #expect(Set(pairs).count == pairs.count, "(classname, name) pairs are unique: \(pairs)")
        #expect(collector.failures == 6)
        #expect(collector.skipped == 1)
        #expect(
            Set(collector.cases.map(\.suite)) == [
                "like-count-mismatch", "key-invalid", "timeline-stale", "push-id-time",
                "follow-self", "like-mirror-missing",
            ])
        #expect(
            collector.cases.contains { $0.suite == "follow-self" }, "a rule without findings still has a passing case")
        #expect(xml.contains("&lt;&amp;&gt; &quot;quoted&quot;"))
    }

    @Test func sarifHasRulesResultsLocationsAndFingerprints() throws {
        let text = SARIFReport.render(SampleAudit.mixed, info: SampleAudit.info)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.contains("sarif") == true)
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "fanout")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        // The rules of the run, run or skipped, in catalog order.
        #expect(rules.map { $0["id"] as? String } == SampleAudit.mixed.allRules.map(\.id))
        #expect(rules.count == SampleAudit.mixed.rulesRun.count + SampleAudit.mixed.skipped.count)
        for rule in rules {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            #expect(((rule["fullDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 6)
        var fingerprints: [String] = []
        for result in results {
            let ruleId = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == ruleId)
            #expect(["error", "warning", "note"].contains(result["level"] as? String))
            #expect((result["message"] as? [String: Any])?["text"] is String)
            let location = try #require((result["locations"] as? [[String: Any]])?.first)
            let logical = try #require((location["logicalLocations"] as? [[String: Any]])?.first)
            #expect((logical["fullyQualifiedName"] as? String)?.contains("/") == true)
            let physical = location["physicalLocation"] as? [String: Any]
            #expect((physical?["artifactLocation"] as? [String: Any])?["uri"] as? String == "backups/export.json")
            let print = try #require((result["partialFingerprints"] as? [String: String])?[SARIFReport.fingerprintKey])
            fingerprints.append(print)
        }
        #expect(results.map { $0["level"] as? String } == ["error", "error", "error", "error", "warning", "note"])
        // Same rule and path, same fingerprint; anything else differs.
        #expect(fingerprints[0] == fingerprints[1] && Set(fingerprints).count == 5)
        #expect(Fingerprint.of(rule: "a", path: "b") != Fingerprint.of(rule: "ab", path: ""))
    }

    @Test func githubAnnotationsAreEscapedAndLimitedPerSeverity() {
        let many =
            (0..<25).map { SampleAudit.finding("like-count-mismatch", .error, "posts/u/p\($0)/like_count") }
            + (0..<3).map { SampleAudit.finding("timeline-stale", .warning, "timeline/u/p\($0)", "a, b: 100%\nnext") }
            + (0..<12).map { SampleAudit.finding("push-id-time", .info, "posts/u/p\($0)/created_at") }
        let lines = GitHubReport.render(SampleAudit.result(many), info: SampleAudit.info).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("::error ") }.count == 10)
        #expect(lines.filter { $0.hasPrefix("::warning ") }.count == 3)
        let notices = lines.filter { $0.hasPrefix("::notice ") }
        #expect(notices.count == 11)
        #expect(notices.last?.contains("17 more findings") == true, "\(notices.last ?? "")")
        let warning = lines.first { $0.hasPrefix("::warning ") }!
        #expect(warning == "::warning title=timeline-stale::timeline/u/p0: a, b: 100%25%0Anext")
        #expect(lines.count == 10 + 3 + 11)
        #expect(GitHubReport.property("a:b,c%\r\n") == "a%3Ab%2Cc%25%0D%0A")
        #expect(GitHubReport.render(SampleAudit.result([]), info: SampleAudit.info).isEmpty)
    }

    @Test func gitlabIssuesHaveSeveritiesLinesAndUniqueFingerprints() throws {
        var findings = SampleAudit.mixed.findings
        findings[0].location = SourceLocation(file: "/ci/project/backups/export.json", line: 87, column: 9)
        findings[1].location = SourceLocation(file: "./backups/export.json", line: 87, column: 9)
        findings[2].location = SourceLocation(file: "/elsewhere/export.json", line: 90, column: 3)
        let text = GitLabReport.render(
            SampleAudit.result(findings), info: SampleAudit.info, workingDirectory: "/ci/project")
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(issues.count == 6)
        #expect(
            issues.map { $0["severity"] as? String } == [
                "critical", "critical", "critical", "critical", "minor", "info",
            ])
        #expect(issues.map { $0["check_name"] as? String } == findings.map(\.rule))
        let locations = issues.map { $0["location"] as? [String: Any] }
        // Inside the job's folder a path is made relative, as GitLab wants; a finding without a location is at line 1.
        #expect(
            locations.map { $0?["path"] as? String } == [
                "backups/export.json", "backups/export.json", "/elsewhere/export.json", "backups/export.json",
                "backups/export.json", "backups/export.json",
            ])
        #expect(locations.map { ($0?["lines"] as? [String: Int])?["begin"] } == [87, 87, 90, 1, 1, 1])
        let fingerprints = issues.compactMap { $0["fingerprint"] as? String }
        // The same rule and path twice: the repeat gets its own fingerprint, since GitLab keeps one issue per print.
        #expect(Set(fingerprints).count == 6)
        #expect(fingerprints[1] == fingerprints[0] + "-2")
        #expect(fingerprints[0] == Fingerprint.of(rule: "like-count-mismatch", path: "posts/u1/p1/like_count"))
        #expect((issues[4]["description"] as? String)?.hasSuffix("(timeline/u2/p1)") == true)
        #expect(GitLabReport.render(SampleAudit.result([]), info: SampleAudit.info) == "[]\n")
        #expect(GitLabReport.repositoryPath("-", workingDirectory: "/") == "stdin")
    }

    @Test func jsonAndTextReportTheBaseline() throws {
        var info = SampleAudit.info
        info.baseline = BaselineOutcome(hidden: 4, fixed: [BaselineEntry(rule: "follow-self", path: "following/u/u")])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONReport.render(SampleAudit.mixed, info: info).utf8))
                as? [String: Any])
        #expect(json["version"] as? Int == 1)
        let baseline = try #require((json["summary"] as? [String: Any])?["baseline"] as? [String: Any])
        #expect(baseline["hidden"] as? Int == 4)
        #expect((baseline["fixed"] as? [[String: String]]) == [["rule": "follow-self", "path": "following/u/u"]])
        let text = TextReport.render(SampleAudit.mixed, info: info)
        #expect(text.contains("baseline: 4 findings hidden, 1 entry fixed"))
        #expect(text.contains("  fixed follow-self following/u/u"))
        #expect(
            text.hasSuffix(TextReport.summaryLine(SampleAudit.mixed, info: info) + "\n"), "the summary line is last")
        let noBaseline = try #require(
            try JSONSerialization.jsonObject(
                with: Data(JSONReport.render(SampleAudit.mixed, info: SampleAudit.info).utf8)) as? [String: Any])
        #expect((noBaseline["summary"] as? [String: Any])?["baseline"] == nil)
    }

    @Test func htmlShowsExplanationsFixesAndTheBaseline() throws {
        var info = SampleAudit.info
        info.baseline = BaselineOutcome(hidden: 2, fixed: [BaselineEntry(rule: "follow-self", path: "following/u/u")])
        let html = try ReportWriter.render(SampleAudit.mixed, info: info, format: .html, templates: nil)
        let explanation = RuleCatalog.descriptor("timeline-stale")!.explanation
        #expect(html.contains(String(explanation.prefix(40))))
        #expect(html.contains("class=\"fix\""))
        #expect(html.contains("The baseline hid <strong>2 known findings</strong>; 1 of its entries no longer occurs."))
        #expect(!html.contains("<&>"))
        let markdown = try ReportWriter.render(SampleAudit.mixed, info: info, format: .markdown, templates: nil)
        #expect(markdown.contains("fix:"))
        #expect(markdown.contains("The baseline hid **2 known findings**; 1 of its entries no longer occurs."))
    }

    @Test func markdownCodeSpansShowValuesExactly() {
        #expect(MarkdownCode.span("posts/u_1/like_count") == "`posts/u_1/like_count`")
        #expect(MarkdownCode.span("a`b") == "``a`b``")
        #expect(MarkdownCode.span("`x``") == "``` `x`` ```")
        #expect(MarkdownCode.span("two\nlines") == "`two lines`")
    }

    @Test func reportsShowTheConfiguredSeverityOfEachRule() throws {
        var result = SampleAudit.mixed
        result.severities = ["follow-self": .info]
        let markdown = try ReportWriter.render(result, info: SampleAudit.info, format: .markdown, templates: nil)
        #expect(markdown.contains("| `follow-self` | info | 0 |"))
    }

    @Test func xmlTextKeepsDocumentsWellFormed() {
        #expect(XMLText.escape("a<b>&\"c'\u{1}\u{FFFE}\n") == "a&lt;b&gt;&amp;&quot;c&apos;\\u{1}\\u{fffe}\n")
    }
}
