import FanoutCore
import FanoutJSON

/// The report as JUnit XML, for the test report views of GitLab, Jenkins and Azure Pipelines.
///
/// One `<testsuite>` per rule that ran, one `<testcase>` per finding (a `<failure>` whose `type` is the
/// severity), or one passing case when the rule found nothing; one suite with a skipped case per rule that did
/// not run. Cases are named by rule (`classname`) and first path (`name`); since GitLab keeps only the first of
/// cases with equal names, repeated pairs get ` #2`, ` #3`… so every pair is unique. The document is valid
/// under Jenkins xUnit's `junit-10.xsd` (`Tests/Schemas/`), which `make test` checks with xmllint.
package enum JUnitReport {
    /// The XML document.
    package static func render(_ result: AuditResult, info: ReportInfo) -> String {
        let compact = JSONWriter(pretty: false)
        var byRule: [String: [Finding]] = [:]
        for finding in result.findings { byRule[finding.rule, default: []].append(finding) }
        let failures = result.findings.count
        let tests = result.rulesRun.reduce(0) { $0 + max(byRule[$1.id]?.count ?? 0, 1) } + result.skipped.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // `<testsuites>` takes no `skipped` count in Jenkins xUnit's junit-10.xsd, which rejects the whole file
        // for it; the skipped rules are counted on their own suites.
        out += "<testsuites name=\"fanout\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for rule in result.rulesRun {
            let findings = byRule[rule.id] ?? []
            out +=
                "  <testsuite name=\(attr(rule.id)) tests=\"\(max(findings.count, 1))\" failures=\"\(findings.count)\""
                + " errors=\"0\" skipped=\"0\">\n"
            if findings.isEmpty {
                out += "    <testcase classname=\(attr(rule.id)) name=\(attr("no findings in \(info.exportName)"))/>\n"
            }
            var used = Set<String>()
            for finding in findings {
                let path = finding.paths.first ?? "-"
                var name = path, n = 1
                while !used.insert(name).inserted {
                    n += 1
                    name = "\(path) #\(n)"
                }
                var details = finding.paths.map { "path: \($0)" }
                if let expected = finding.expected { details.append("expected: \(compact.write(expected))") }
                if let actual = finding.actual { details.append("actual: \(compact.write(actual))") }
                for entry in finding.fix { details.append("fix: \"\(entry.path)\": \(compact.write(entry.value))") }
                out += "    <testcase classname=\(attr(rule.id)) name=\(attr(name))>\n"
                out +=
                    "      <failure type=\(attr(finding.severity.rawValue)) message=\(attr(finding.message))>"
                    + XMLText.escape(details.joined(separator: "\n")) + "</failure>\n"
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        for skipped in result.skipped {
            out += "  <testsuite name=\(attr(skipped.rule)) tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">\n"
            out +=
                "    <testcase classname=\(attr(skipped.rule)) name=\"not run\"><skipped message=\(attr(skipped.reason))/></testcase>\n"
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    private static func attr(_ value: String) -> String { "\"" + XMLText.attribute(value) + "\"" }
}
