import FanoutCore
import FanoutJSON
import FanoutTemplates

/// The plain-text report `fanout check` prints by default: the summary first (the summary line, findings per
/// rule, skipped rules, the baseline), then the findings grouped by rule, each at its place in the export
/// (`export.json:1234:17: PATH: MESSAGE`), then the summary line again, so that it is both the first and the last
/// thing a reader of a long log sees.
///
/// Data from the export (paths, messages quoting usernames) goes through ``TerminalText`` so it cannot break
/// lines or send control sequences; colours are Fanout's own escape sequences, only when ``Options/color``.
public enum TextReport {
    /// How much to print, and how.
    public struct Options: Sendable, Equatable {
        /// Findings listed per rule (and baseline entries listed as fixed); the rest are counted, "… and 2,980
        /// more". Nil: all.
        public var maxPerRule: Int?
        /// Only the summary.
        public var quiet: Bool
        /// Colours by severity (ANSI escape sequences), for a terminal.
        public var color: Bool

        /// Options; by default everything, without colour.
        public init(maxPerRule: Int? = nil, quiet: Bool = false, color: Bool = false) {
            self.maxPerRule = maxPerRule
            self.quiet = quiet
            self.color = color
        }
    }

    /// The report text.
    package static func render(_ result: AuditResult, info: ReportInfo, options: Options = Options()) -> String {
        var byRule: [String: [Finding]] = [:]
        for finding in result.findings { byRule[finding.rule, default: []].append(finding) }
        let withFindings = result.rulesRun.filter { byRule[$0.id] != nil }

        var out = summaryLine(result, info: info, color: options.color) + "\n"
        let countWidth = withFindings.map { CountText.grouped(byRule[$0.id]!.count).count }.max() ?? 0
        for rule in withFindings {
            let severity = result.severity(of: rule)
            let count = CountText.grouped(byRule[rule.id]!.count)
            out +=
                "  " + paint(pad(severity.rawValue, 8), severity, options)
                + String(repeating: " ", count: countWidth - count.count)
                + count + "  \(rule.id)\n"
        }
        for skipped in result.skipped {
            out +=
                "  " + pad("skipped", 8) + String(repeating: " ", count: countWidth) + "  \(skipped.rule): "
                + TerminalText.escape(skipped.reason) + "\n"
        }
        if let baseline = info.baseline { out += baselineLine(baseline) + "\n" }
        let fixed = info.baseline?.fixed ?? []
        guard !options.quiet, !withFindings.isEmpty || !fixed.isEmpty else { return out }

        for rule in withFindings {
            let findings = byRule[rule.id]!
            let severity = result.severity(of: rule)
            out +=
                "\n"
                + paint(
                    "\(rule.id) (\(severity.rawValue), \(counted(findings.count, "finding")))", severity, options,
                    bold: true) + "\n"
            for finding in findings.prefix(options.maxPerRule ?? findings.count) {
                let place = finding.location.map { TerminalText.escape($0.description) + ": " } ?? ""
                out +=
                    "  \(place)\(TerminalText.escape(finding.paths.first ?? "-")): \(TerminalText.escape(finding.message))\n"
                if let expected = finding.expected, let actual = finding.actual {
                    // JSON escapes C0 controls but leaves DEL, C1 and U+2028 raw, which a terminal must not get.
                    let json = JSONWriter(pretty: false)
                    out +=
                        "    expected \(TerminalText.escape(json.write(expected))), actual \(TerminalText.escape(json.write(actual)))\n"
                }
            }
            out += more(findings.count, shown: options.maxPerRule)
        }
        if !fixed.isEmpty {
            out += "\nbaseline entries fixed (no longer found; delete them from the baseline file):\n"
            for entry in fixed.prefix(options.maxPerRule ?? fixed.count) {
                out += "  fixed \(TerminalText.escape(entry.rule)) \(TerminalText.escape(entry.path))\n"
            }
            out += more(fixed.count, shown: options.maxPerRule)
        }
        out += "\n" + summaryLine(result, info: info, color: options.color) + "\n"
        return out
    }

    /// `baseline: 4 findings hidden, 1 entry fixed (no longer found)`.
    package static func baselineLine(_ baseline: BaselineOutcome) -> String {
        let f = baseline.fixed.count
        return
            "baseline: \(counted(baseline.hidden, "finding")) hidden, \(CountText.grouped(f)) entr\(f == 1 ? "y" : "ies") fixed (no longer found)"
    }

    /// `3 errors, 1 warning, 0 info from 10 rules on Content/export.json (makestagram layout)`; with `color`, the
    /// counts that are not zero in their severity's colour.
    package static func summaryLine(_ result: AuditResult, info: ReportInfo, color: Bool = false) -> String {
        let options = Options(color: color)
        func part(_ severity: Severity, _ noun: String) -> String {
            let n = result.count(severity)
            let text = severity == .info ? "\(CountText.grouped(n)) info" : counted(n, noun)
            return n == 0 ? text : paint(text, severity, options)
        }
        return "\(part(.error, "error")), \(part(.warning, "warning")), \(part(.info, "info")) from "
            + "\(result.rulesRun.count) rules on \(TerminalText.escape(info.exportName)) (\(TerminalText.escape(info.schemaName)) layout\(info.namespacesText.map { "; " + TerminalText.escape($0) } ?? ""))"
    }

    /// `  … and 2,980 more`, when fewer than `count` were shown.
    private static func more(_ count: Int, shown: Int?) -> String {
        guard let shown, count > shown else { return "" }
        return "  … and \(CountText.grouped(count - shown)) more (--max-per-rule all lists them)\n"
    }

    /// `1 finding`, `2,980 findings`.
    private static func counted(_ n: Int, _ noun: String) -> String { CountText.phrase(n, noun, noun + "s") }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// `text` in the colour of `severity` (red, yellow, cyan) when colours are on.
    private static func paint(_ text: String, _ severity: Severity, _ options: Options, bold: Bool = false) -> String {
        guard options.color else { return text }
        let code =
            switch severity {
            case .error: "31"
            case .warning: "33"
            case .info: "36"
            }
        return "\u{1B}[\(bold ? "1;" : "")\(code)m\(text)\u{1B}[0m"
    }
}
