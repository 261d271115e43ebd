import FanoutCore
import FanoutJSON
import FanoutTemplates

/// The diff as text, for a terminal or a CI log (docs/diff-and-history.md, "Reports"): the summary line; the two
/// exports; a table of the relations (before, after, added, removed, changed) and one of the rules (before,
/// after, new, fixed); the first entries of each change and the new and fixed findings, at most
/// `maxPerList` of each list; the summary line again. Export data goes through ``TerminalText``.
enum DiffText {
    static func render(_ diff: ExportDiff, info: DiffInfo, maxPerList: Int?) -> String {
        let summary = TerminalText.escape(DiffSummary.line(diff))
        var out = summary + "\n"
        out +=
            "old \(TerminalText.escape(info.oldName)), new \(TerminalText.escape(info.newName)) "
            + "(\(TerminalText.escape(info.schemaName)) layout)\n\n"
        out += table(
            ["relation", "before", "after", "added", "removed", "changed"],
            diff.data.map { r in
                [r.relation.name]
                    + [r.before, r.after, r.added.count, r.removed.count, r.changed.count].map(CountText.grouped)
            })
        let rules = diff.audit.rules.filter { $0.before + $0.after > 0 }
        out +=
            "\n"
            + table(
                ["rule", "severity", "before", "after", "new", "fixed"],
                rules.map { r in
                    [r.rule, r.severity.rawValue] + [r.before, r.after, r.new, r.fixed].map(CountText.grouped)
                }, left: 2)
        let quiet = diff.audit.rules.count - rules.count
        if quiet > 0 {
            out += "  (" + CountText.phrase(quiet, "rule", "rules") + " without findings in either export)\n"
        }

        for relation in diff.data where !relation.isEmpty {
            out += "\n\(TerminalText.escape(relation.relation.name)): \(DiffValueText.counts(relation))\n"
            for (_, sign, entries) in DiffValueText.kinds(relation) {
                for entry in entries.prefix(maxPerList ?? entries.count) {
                    out += "  \(sign) \(TerminalText.escape(entry.path))" + describe(entry, sign: sign) + "\n"
                }
                out += more(entries.count, shown: maxPerList)
            }
        }
        for (title, findings) in [("new findings", diff.audit.new), ("fixed findings", diff.audit.fixed)]
        where !findings.isEmpty {
            out += "\n\(title): \(CountText.grouped(findings.count))\n"
            for (rule, list) in DiffValueText.byRule(findings) {
                out += "\(TerminalText.escape(rule)) (\(list[0].severity.rawValue), \(CountText.grouped(list.count)))\n"
                for finding in list.prefix(maxPerList ?? list.count) {
                    out +=
                        "  \(TerminalText.escape(finding.paths.first ?? "-")): \(TerminalText.escape(finding.message))\n"
                }
                out += more(list.count, shown: maxPerList)
            }
        }
        return out + "\n" + summary + "\n"
    }

    /// What follows an entry's path: the value's members the path does not show, or what changed.
    private static func describe(_ entry: DiffEntry, sign: String) -> String {
        DiffValueText.described(entry, sign: sign, name: TerminalText.escape, value: TerminalText.escape)
    }

    /// Columns padded to their widest cell, the first `left` left-aligned (names), the others right-aligned
    /// (numbers).
    private static func table(_ header: [String], _ rows: [[String]], left: Int = 1) -> String {
        let escaped = rows.map { $0.map(TerminalText.escape) }
        let widths = header.indices.map { column in ([header] + escaped).map { $0[column].count }.max() ?? 0 }
        return ([header] + escaped).map { row in
            "  "
                + row.enumerated().map { column, cell in
                    let pad = String(repeating: " ", count: widths[column] - cell.count)
                    return column < left ? cell + pad : pad + cell
                }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }.joined()
    }

    /// `  … and 2,980 more`, when fewer than `count` were shown.
    private static func more(_ count: Int, shown: Int?) -> String {
        guard let shown, count > shown else { return "" }
        return "  … and \(CountText.grouped(count - shown)) more (-v or --max-per-rule all lists them)\n"
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
