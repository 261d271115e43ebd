import FanoutCore
import FanoutJSON

/// The values the `report` and `report.md` templates see.
enum ReportView {
    /// At most this many findings per rule are listed in HTML and Markdown; `report.json` has them all.
    static let findingsPerRule = 1000

    static func context(_ result: AuditResult, info: ReportInfo) -> [String: Any] {
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
        if let baseline = info.baseline {
            context["baseline"] = [
                "hidden": baseline.hidden, "fixedCount": baseline.fixed.count, "hasFixed": !baseline.fixed.isEmpty,
                "fixed": baseline.fixed.map { ["rule": $0.rule, "path": $0.path, "pathCode": MarkdownCode.span($0.path)] },
            ] as [String: Any]
        }
        return context
    }
}
