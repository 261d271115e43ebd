import FanoutCore

/// The report as GitHub Actions workflow commands, which the runner turns into annotations on the run.
///
/// One `::error title=RULE::PATH: MESSAGE` (or `::warning`, `::notice` for info) per finding, at most
/// ``perSeverity`` per severity, because GitHub shows only the first few annotations of each kind per step;
/// then one `::notice` saying how many were left out. A run with a baseline starts with one `::notice` giving
/// the number of findings it hid and of its entries fixed. Data is escaped as the runner requires: `%`, CR and LF
/// in messages, and also `:` and `,` in properties; other control characters as in ``TerminalText``.
package enum GitHubReport {
    /// Annotations written per severity.
    package static let perSeverity = 10

    /// The workflow commands, one per line.
    package static func render(_ result: AuditResult, info: ReportInfo) -> String {
        var out = ""
        if let baseline = info.baseline {
            // One notice for the whole baseline: what it hid and which of its entries can go.
            out += "::notice title=\(property("fanout baseline"))::\(data(TextReport.baselineLine(baseline)))\n"
        }
        var written: [Severity: Int] = [:]
        var omitted = 0
        for finding in result.findings {
            guard written[finding.severity, default: 0] < perSeverity else {
                omitted += 1
                continue
            }
            written[finding.severity, default: 0] += 1
            let path = finding.paths.first.map { "\($0): " } ?? ""
            out += "::\(command(finding.severity)) title=\(property(finding.rule))::\(data(path + finding.message))\n"
        }
        if omitted > 0 {
            let summary =
                "\(omitted) more finding\(omitted == 1 ? "" : "s") not shown as annotations; "
                + "run fanout check \(info.exportName) for the full report"
            out += "::notice title=\(property("fanout"))::\(data(summary))\n"
        }
        return out
    }

    static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
    }

    /// Escapes a command's message.
    static func data(_ text: String) -> String { escape(text, property: false) }

    /// Escapes a command property's value.
    static func property(_ text: String) -> String { escape(text, property: true) }

    /// Works on scalars, not characters, so that a CR LF pair (one `Character`) is escaped as two.
    private static func escape(_ text: String, property: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            // Other control characters are not commands to the runner, but would reach the log raw: an ESC
            // sequence acts on the terminal of whoever reads it. Spelled as the text report spells them.
            case _ where TerminalText.isControl(scalar): out += TerminalText.escape(String(scalar))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
