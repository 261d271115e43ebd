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
                [
                    "severity": finding.severity.rawValue,
                    "message": finding.message,
                    "paths": finding.paths,
                    "expected": finding.expected.map(compact.write) ?? "—",
                    "actual": finding.actual.map(compact.write) ?? "—",
                    "hasFix": !finding.fix.isEmpty,
                    "fix": finding.fix.map { "\"\($0.path)\": \(compact.write($0.value))" }.joined(separator: "\n"),
                ]
            }
            var view: [String: Any] = [
                "id": rule.id, "severity": (findings.first?.severity ?? rule.defaultSeverity).rawValue,
                "summary": rule.summary, "explanation": rule.explanation, "count": findings.count,
                "hasFindings": !findings.isEmpty, "findings": shown,
            ]
            if findings.count > findingsPerRule { view["omitted"] = findings.count - findingsPerRule }
            return view
        }
        return [
            "total": result.findings.count, "errors": result.count(.error), "warnings": result.count(.warning),
            "infos": result.count(.info), "rulesRun": result.rulesRun.count, "rules": rules,
            "hasSkipped": !result.skipped.isEmpty,
            "skipped": result.skipped.map { ["rule": $0.rule, "reason": $0.reason] },
            "exportName": info.exportName, "schemaName": info.schemaName,
        ]
    }
}
