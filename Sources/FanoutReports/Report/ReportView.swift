import FanoutCore
import FanoutJSON
import FanoutTemplates

/// The values the `report` and `report.md` templates see.
package enum ReportView {
    /// At most this many findings per rule are listed in HTML and Markdown; `report.json` has them all.
    static let findingsPerRule = 1000

    /// The template values of the report of `result`; `coverage` (timeline coverage, from the derived data or a
    /// JSON report) adds the coverage chart when given; `pageLinks` (the site's report) gives each finding links to
    /// the pages it concerns, as `text` and `href`.
    package static func context(
        _ result: AuditResult, info: ReportInfo, coverage: TimelineCoverage? = nil,
        pageLinks: ((Finding) -> [[String: Any]])? = nil
    ) -> [String: Any] {
        let compact = JSONWriter(pretty: false)
        let rules: [[String: Any]] = result.rulesRun.map { rule in
            let findings = result.findings.filter { $0.rule == rule.id }
            let shown: [[String: Any]] = findings.prefix(findingsPerRule).map { finding in
                let expected = finding.expected.map(compact.write) ?? "—",
                    actual = finding.actual.map(compact.write) ?? "—"
                let fixLines = finding.fix.map { "\"\($0.path)\": \(compact.write($0.value))" }
                let links = pageLinks?(finding) ?? []
                return [
                    "pageLinks": links, "hasPageLinks": !links.isEmpty,
                    "severity": finding.severity.rawValue,
                    "message": finding.message,
                    "paths": finding.paths,
                    "expected": expected,
                    "actual": actual,
                    "hasFix": !finding.fix.isEmpty,
                    "fix": fixLines.joined(separator: "\n"),
                    // Code spans for the Markdown report, inserted unescaped.
                    "pathsCode": finding.paths.map(MarkdownCode.span).joined(separator: " "),
                    "expectedCode": MarkdownCode.span(expected),
                    "actualCode": MarkdownCode.span(actual),
                    "fixCode": fixLines.map(MarkdownCode.span),
                ]
            }
            var view: [String: Any] = [
                "id": rule.id, "severity": result.severity(of: rule).rawValue,
                "summary": rule.summary, "explanation": rule.explanation, "count": CountText.grouped(findings.count),
                "hasFindings": !findings.isEmpty, "findings": shown, "mechanical": rule.isMechanical,
            ]
            if findings.count > findingsPerRule {
                view["omitted"] = CountText.grouped(findings.count - findingsPerRule)
            }
            return view
        }
        let total = result.findings.count, errors = result.count(.error), warnings = result.count(.warning)
        let infos = result.count(.info), rulesRun = result.rulesRun.count
        var context: [String: Any] = [
            "total": CountText.grouped(total), "errors": CountText.grouped(errors),
            "warnings": CountText.grouped(warnings), "infos": CountText.grouped(infos),
            "rulesRun": CountText.grouped(rulesRun), "rules": rules,
            // The same numbers with their nouns, in the number they need.
            "totalText": CountText.phrase(total, "finding", "findings"),
            "errorsText": CountText.phrase(errors, "error", "errors"),
            "warningsText": CountText.phrase(warnings, "warning", "warnings"),
            "infosText": CountText.phrase(infos, "info", "info"),
            "rulesRunText": CountText.phrase(rulesRun, "rule ran", "rules ran"),
            "hasSkipped": !result.skipped.isEmpty,
            "skipped": result.skipped.map { ["rule": $0.rule, "reason": $0.reason] },
            "exportName": info.exportName, "schemaName": info.schemaName,
            "exportNameCode": MarkdownCode.span(info.exportName),
            "hasNamespaces": !info.namespaces.isEmpty, "namespacesText": info.namespacesText ?? "",
        ]
        context["charts"] = charts(ChartsData(result, coverage: coverage))
        if let baseline = info.baseline {
            let fixed = baseline.fixed.count
            context["baseline"] =
                [
                    "hidden": CountText.grouped(baseline.hidden), "fixedCount": CountText.grouped(fixed),
                    "hiddenText": CountText.phrase(baseline.hidden, "known finding", "known findings"),
                    "fixedText": CountText.grouped(fixed)
                        + (fixed == 1 ? " of its entries no longer occurs" : " of its entries no longer occur"),
                    "hasFixed": !baseline.fixed.isEmpty,
                    "fixed": baseline.fixed.map {
                        ["rule": $0.rule, "path": $0.path, "pathCode": MarkdownCode.span($0.path)]
                    },
                ] as [String: Any]
        }
        return context
    }

    /// The report's SVG charts, inserted unescaped (they escape their own labels).
    static func charts(_ data: ChartsData) -> [String: Any] {
        var charts: [String: Any] = [
            "findingsPerRule": Charts.bars(
                data.findingsPerRule, title: "Findings per rule", id: "chart-rules",
                unit: { CountText.phrase($0, "finding", "findings") })
        ]
        if !data.likeDeltas.isEmpty {
            charts["likeDeltas"] = Charts.bars(
                data.likeDeltas, title: "Like-count deltas (stored − counted)",
                id: "chart-deltas", unit: { CountText.phrase($0, "post", "posts") })
        }
        if let coverage = data.coverage, coverage.timelines > 0 {
            charts["coverage"] = Charts.coverage(coverage)
            let full = coverage.full
            charts["coverageSummary"] =
                "\(CountText.grouped(full)) of \(CountText.phrase(coverage.timelines, "timeline", "timelines")) "
                + (full == 1 ? "has every stored entry it should." : "have every stored entry they should.")
        }
        return charts
    }
}
