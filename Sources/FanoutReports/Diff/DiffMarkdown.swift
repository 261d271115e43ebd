import FanoutCore
import FanoutTemplates

/// The diff as Markdown, for a pull request or a wiki (docs/diff-and-history.md, "Reports"): the summary line in
/// bold, the tables of relations and rules, then each relation's changes and the new and fixed findings, at most
/// `maxPerList` of each list. Paths and values are code spans (``MarkdownCode``), other text is escaped.
enum DiffMarkdown {
    static func render(_ diff: ExportDiff, info: DiffInfo, maxPerList: Int?) -> String {
        var out = "# Diff\n\n**\(MarkdownText.escape(DiffSummary.line(diff)))**\n\n"
        out +=
            "Old \(MarkdownCode.span(info.oldName)), new \(MarkdownCode.span(info.newName)) "
            + "(\(MarkdownText.escape(info.schemaName)) layout).\n\n"
        out += "| Relation | Before | After | Added | Removed | Changed |\n|---|--:|--:|--:|--:|--:|\n"
        for r in diff.data {
            out +=
                "| \(MarkdownCode.span(r.relation.name)) | "
                + [r.before, r.after, r.added.count, r.removed.count, r.changed.count].map(CountText.grouped).joined(
                    separator: " | ") + " |\n"
        }
        let rules = diff.audit.rules.filter { $0.before + $0.after > 0 }
        if !rules.isEmpty {
            out += "\n| Rule | Severity | Before | After | New | Fixed |\n|---|---|--:|--:|--:|--:|\n"
            for r in rules {
                out +=
                    "| \(MarkdownCode.span(r.rule)) | \(r.severity.rawValue) | "
                    + [r.before, r.after, r.new, r.fixed].map(CountText.grouped).joined(separator: " | ") + " |\n"
            }
        }
        for relation in diff.data where !relation.isEmpty {
            out += "\n## \(MarkdownCode.span(relation.relation.name)): \(DiffValueText.counts(relation))\n\n"
            for (_, sign, entries) in DiffValueText.kinds(relation) {
                for entry in entries.prefix(maxPerList ?? entries.count) {
                    out += "- \(sign) \(MarkdownCode.span(entry.path))" + describe(entry, sign: sign) + "\n"
                }
                out += more(entries.count, shown: maxPerList)
            }
        }
        for (title, findings) in [("New findings", diff.audit.new), ("Fixed findings", diff.audit.fixed)]
        where !findings.isEmpty {
            out += "\n## \(title) (\(CountText.grouped(findings.count)))\n"
            for (rule, list) in DiffValueText.byRule(findings) {
                out +=
                    "\n### \(MarkdownCode.span(rule)) (\(list[0].severity.rawValue), \(CountText.grouped(list.count)))\n\n"
                for finding in list.prefix(maxPerList ?? list.count) {
                    out +=
                        "- \(MarkdownText.escape(finding.message)): \(finding.paths.map(MarkdownCode.span).joined(separator: " "))\n"
                }
                out += more(list.count, shown: maxPerList)
            }
        }
        return out
    }

    private static func describe(_ entry: DiffEntry, sign: String) -> String {
        DiffValueText.described(entry, sign: sign, name: MarkdownText.escape, value: MarkdownCode.span)
    }

    private static func more(_ count: Int, shown: Int?) -> String {
        guard let shown, count > shown else { return "" }
        return "- … and \(CountText.grouped(count - shown)) more (the JSON report lists them all)\n"
    }
}
