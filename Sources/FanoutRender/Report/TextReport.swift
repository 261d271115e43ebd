import FanoutCore
import FanoutJSON

/// The plain-text report `fanout check` prints by default: findings grouped by rule, a summary line last.
///
/// Data from the export (paths, messages quoting usernames) goes through ``TerminalText`` so it cannot break
/// lines or send control sequences.
package enum TextReport {
    /// The report text.
    package static func render(_ result: AuditResult, info: ReportInfo) -> String {
        var out = ""
        for rule in result.rulesRun {
            let findings = result.findings.filter { $0.rule == rule.id }
            guard let first = findings.first else { continue }
            out += "\(rule.id) (\(first.severity.rawValue), \(findings.count) finding\(findings.count == 1 ? "" : "s"))\n"
            for finding in findings {
                out += "  \(TerminalText.escape(finding.paths.first ?? "-")): \(TerminalText.escape(finding.message))\n"
                if let expected = finding.expected, let actual = finding.actual {
                    out += "    expected \(JSONWriter(pretty: false).write(expected)), actual \(JSONWriter(pretty: false).write(actual))\n"
                }
            }
            out += "\n"
        }
        for skipped in result.skipped {
            out += "skipped \(skipped.rule): \(TerminalText.escape(skipped.reason))\n"
        }
        if !result.skipped.isEmpty { out += "\n" }
        if let baseline = info.baseline {
            out += baselineLine(baseline) + "\n"
            for entry in baseline.fixed { out += "  fixed \(TerminalText.escape(entry.rule)) \(TerminalText.escape(entry.path))\n" }
            out += "\n"
        }
        out += summaryLine(result, info: info) + "\n"
        return out
    }

    /// `baseline: 4 findings hidden, 1 entry fixed (no longer found)`.
    package static func baselineLine(_ baseline: BaselineOutcome) -> String {
        let h = baseline.hidden, f = baseline.fixed.count
        return "baseline: \(h) finding\(h == 1 ? "" : "s") hidden, \(f) entr\(f == 1 ? "y" : "ies") fixed (no longer found)"
    }

    /// `3 errors, 1 warning, 0 info from 10 rules on Content/export.json (makestagram layout)`.
    package static func summaryLine(_ result: AuditResult, info: ReportInfo) -> String {
        let e = result.count(.error), w = result.count(.warning), i = result.count(.info)
        return "\(e) error\(e == 1 ? "" : "s"), \(w) warning\(w == 1 ? "" : "s"), \(i) info from "
            + "\(result.rulesRun.count) rules on \(TerminalText.escape(info.exportName)) (\(TerminalText.escape(info.schemaName)) layout)"
    }
}
