import FanoutCore
import FanoutJSON
import FanoutTemplates

/// The diff as a page in the report's style (docs/diff-and-history.md, "Reports"), rendered by `diff.mustache`
/// (inside `standalone.mustache`, with the site's stylesheet): the summary line, the tables of relations and
/// rules (folding on a phone), each relation's changes and the new and fixed findings, at most `maxPerList` of
/// each list. The values are text, escaped by the template, except each entry's `description`, HTML already.
enum DiffHTML {
    static func render(_ diff: ExportDiff, info: DiffInfo, maxPerList: Int?, templates: TemplateSet)
        throws(RenderError) -> String
    {
        var context = values(diff, info: info, maxPerList: maxPerList)
        context["title"] = "Diff"
        // A page written on its own has no site's style.css beside it: it carries the stylesheet inside.
        context["inlineStyle"] = templates.assets["style.css"] ?? ""
        return StandalonePage.finished(try templates.render(context, template: "diff"))
    }

    /// The values `diff.mustache` sees, but for the page's `title` and `inlineStyle`.
    static func values(_ diff: ExportDiff, info: DiffInfo, maxPerList: Int?) -> [String: Any] {
        let grouped = CountText.grouped
        let data: [[String: Any]] = diff.data.map { r in
            [
                "relation": r.relation.name, "before": grouped(r.before), "after": grouped(r.after),
                "added": grouped(r.added.count), "removed": grouped(r.removed.count),
                "changed": grouped(r.changed.count),
            ]
        }
        let rules: [[String: Any]] = diff.audit.rules.filter { $0.before + $0.after > 0 }.map { r in
            [
                "rule": r.rule, "severity": r.severity.rawValue, "before": grouped(r.before),
                "after": grouped(r.after), "new": grouped(r.new), "fixed": grouped(r.fixed),
            ]
        }
        var relations: [[String: Any]] = []
        for (index, relation) in diff.data.enumerated() where !relation.isEmpty {
            let kinds: [[String: Any]] = DiffValueText.kinds(relation).map { kind, sign, entries in
                var view: [String: Any] = [
                    "title": kind.prefix(1).uppercased() + kind.dropFirst(),
                    "entries": entries.prefix(maxPerList ?? entries.count).map { entry in
                        ["path": entry.path, "description": describe(entry, sign: sign)]
                    },
                ]
                view["omitted"] = omitted(entries.count, shown: maxPerList)
                return view
            }
            relations.append([
                "index": String(index), "relation": relation.relation.name,
                "counts": DiffValueText.counts(relation), "kinds": kinds,
            ])
        }
        var sections: [[String: Any]] = []
        for (id, title, findings) in [
            ("new", "New findings", diff.audit.new), ("fixed", "Fixed findings", diff.audit.fixed),
        ]
        where !findings.isEmpty {
            let groups: [[String: Any]] = DiffValueText.byRule(findings).map { rule, list in
                var view: [String: Any] = [
                    "rule": rule, "severity": list[0].severity.rawValue, "count": grouped(list.count),
                    "findings": list.prefix(maxPerList ?? list.count).map { finding in
                        [
                            "severity": finding.severity.rawValue, "message": finding.message,
                            "paths": finding.paths,
                        ] as [String: Any]
                    },
                ]
                view["omitted"] = omitted(list.count, shown: maxPerList)
                return view
            }
            sections.append(["id": id, "title": title, "count": grouped(findings.count), "groups": groups])
        }
        return [
            "summary": DiffSummary.line(diff), "oldName": info.oldName, "newName": info.newName,
            "schemaName": info.schemaName, "data": data, "hasRules": !rules.isEmpty, "rules": rules,
            "relations": relations, "findingSections": sections,
        ]
    }

    /// What follows an entry's path, as HTML: its members' names escaped, their values as escaped code.
    private static func describe(_ entry: DiffEntry, sign: String) -> String {
        DiffValueText.described(
            entry, sign: sign, name: HTMLText.escape, value: { "<code>\(HTMLText.escape($0))</code>" })
    }

    /// How many of `count` a list leaves out when it shows `shown`; nil when it shows them all.
    private static func omitted(_ count: Int, shown: Int?) -> String? {
        guard let shown, count > shown else { return nil }
        return CountText.grouped(count - shown)
    }
}
