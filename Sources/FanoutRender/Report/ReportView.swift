import FanoutCore
import FanoutJSON

/// The values the `report` and `report.md` templates see.
enum ReportView {
    /// At most this many findings per rule are listed in HTML and Markdown; `report.json` has them all.
    static let findingsPerRule = 1000

    /// The template values of the report of `result`; `coverage` (per-user timeline coverage, from the derived
    /// data) adds the coverage chart when given.
    static func context(_ result: AuditResult, info: ReportInfo, coverage: [ChartsData.Coverage]? = nil) -> [String: Any] {
        let compact = JSONWriter(pretty: false)
        let rules: [[String: Any]] = result.rulesRun.map { rule in
            let findings = result.findings.filter { $0.rule == rule.id }
            let shown: [[String: Any]] = findings.prefix(findingsPerRule).map { finding in
                let expected = finding.expected.map(compact.write) ?? "—", actual = finding.actual.map(compact.write) ?? "—"
                let fixLines = finding.fix.map { "\"\($0.path)\": \(compact.write($0.value))" }
                return [
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
                "summary": rule.summary, "explanation": rule.explanation, "count": findings.count,
                "hasFindings": !findings.isEmpty, "findings": shown, "mechanical": rule.isMechanical,
            ]
            if findings.count > findingsPerRule { view["omitted"] = findings.count - findingsPerRule }
            return view
        }
        var context: [String: Any] = [
            "total": result.findings.count, "errors": result.count(.error), "warnings": result.count(.warning),
            "infos": result.count(.info), "rulesRun": result.rulesRun.count, "rules": rules,
            "hasSkipped": !result.skipped.isEmpty,
            "skipped": result.skipped.map { ["rule": $0.rule, "reason": $0.reason] },
            "exportName": info.exportName, "schemaName": info.schemaName,
            "exportNameCode": MarkdownCode.span(info.exportName),
        ]
        context["charts"] = charts(ChartsData(result, coverage: coverage))
        if let baseline = info.baseline {
            context["baseline"] = [
                "hidden": baseline.hidden, "fixedCount": baseline.fixed.count, "hasFixed": !baseline.fixed.isEmpty,
                "fixed": baseline.fixed.map { ["rule": $0.rule, "path": $0.path, "pathCode": MarkdownCode.span($0.path)] },
            ] as [String: Any]
        }
        return context
    }

    /// The report's SVG charts, inserted unescaped (they escape their own labels).
    static func charts(_ data: ChartsData) -> [String: Any] {
        var charts: [String: Any] = [
            "findingsPerRule": Charts.bars(data.findingsPerRule, title: "Findings per rule", id: "chart-rules",
                                           unit: { $0 == 1 ? "1 finding" : "\($0) findings" }),
        ]
        if !data.likeDeltas.isEmpty {
            charts["likeDeltas"] = Charts.bars(data.likeDeltas, title: "Like-count deltas (stored − counted)",
                                               id: "chart-deltas", unit: { $0 == 1 ? "1 post" : "\($0) posts" })
        }
        if let coverage = data.coverage, !coverage.isEmpty {
            charts["coverage"] = Charts.coverage(coverage)
            let full = coverage.count { $0.stored == $0.derived }
            charts["coverageSummary"] = "\(full) of \(coverage.count) timelines have every stored entry they should."
        }
        return charts
    }
}
