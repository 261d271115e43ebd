import FanoutCore
import FanoutTemplates

/// The line every diff report starts with (and the text report ends with): `+3 new errors, 12 fixed; +1,204 likes,
/// −3 users, 12 posts changed`. The audit first, since that is what a nightly run is judged by; then each
/// relation whose count moved, the largest move first, and each relation with facts that changed in place.
/// docs/diff-and-history.md, "Reports".
enum DiffSummary {
    static func line(_ diff: ExportDiff) -> String {
        var audit: [String] = []
        for (severity, one, other) in [
            (Severity.error, "error", "errors"), (.warning, "warning", "warnings"), (.info, "info", "info"),
        ] {
            let n = diff.audit.newCount(severity)
            if n > 0 { audit.append("+" + CountText.phrase(n, "new \(one)", "new \(other)")) }
        }
        if audit.isEmpty { audit.append("no new findings") }
        if !diff.audit.fixed.isEmpty { audit.append("\(CountText.grouped(diff.audit.fixed.count)) fixed") }

        let moved = diff.data.enumerated().filter { $0.element.after != $0.element.before }
            .sorted { a, b in
                let (x, y) = (abs(a.element.after - a.element.before), abs(b.element.after - b.element.before))
                return x != y ? x > y : a.offset < b.offset
            }.map(\.element)
        var data = moved.map { relation in
            let net = relation.after - relation.before, nouns = relation.relation.nouns
            // U+2212, the minus sign: a hyphen reads as a dash in prose.
            return (net > 0 ? "+" : "\u{2212}") + CountText.phrase(abs(net), nouns.one, nouns.other)
        }
        // As many added as removed leaves the count where it was, but not the data.
        data += diff.data.filter { $0.after == $0.before && !$0.added.isEmpty }.map { relation in
            let nouns = relation.relation.nouns
            return CountText.phrase(relation.added.count, nouns.one, nouns.other)
                + " added and \(CountText.grouped(relation.removed.count)) removed"
        }
        data += diff.data.filter { !$0.changed.isEmpty }.map { relation in
            CountText.phrase(relation.changed.count, relation.relation.nouns.one, relation.relation.nouns.other)
                + " changed"
        }
        if data.isEmpty { data.append("no data changed") }
        return audit.joined(separator: ", ") + "; " + data.joined(separator: ", ")
    }
}
