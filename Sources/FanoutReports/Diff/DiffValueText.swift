import FanoutCore
import FanoutJSON
import FanoutTemplates

/// What the text, Markdown and HTML diffs show of a fact's value: for an added or removed fact, the members its
/// path does not already show (a like's path names its post and user; a user's holds neither name); for a changed
/// one, each member that differs, old → new. Values are compact JSON, so that `"1"` and `1` stay apart.
enum DiffValueText {
    /// The members of `value` worth showing beside `path`, as (name, JSON text).
    static func shown(_ value: JSONValue?, path: String) -> [(name: String, value: String)] {
        let segments = Set(path.split(separator: "/").map(String.init))
        return (value?.objectMembers ?? []).compactMap { member in
            if member.value.isNull { return nil }
            if let text = member.value.stringValue, segments.contains(text) { return nil }
            return (member.key, json.write(member.value))
        }
    }

    /// The members that differ between the old and the new value, as (name, old JSON, new JSON).
    static func changes(_ entry: DiffEntry) -> [(name: String, old: String, new: String)] {
        let old = entry.old?.objectMembers ?? [], new = entry.new?.objectMembers ?? []
        return new.compactMap { member in
            let before = old.first { $0.key == member.key }?.value ?? .null
            return before == member.value ? nil : (member.key, json.write(before), json.write(member.value))
        }
    }

    /// What a report shows after an entry's path: `: member old → new, …` for a change (`sign` ~), `: member value,
    /// …` for an added or removed fact; empty when nothing is left to show. Names and values go through the
    /// format's own escaping (`name`, `value`), the rest is the same in every format.
    static func described(_ entry: DiffEntry, sign: String, name: (String) -> String, value: (String) -> String)
        -> String
    {
        let parts =
            sign == "~"
            ? changes(entry).map { "\(name($0.name)) \(value($0.old)) \u{2192} \(value($0.new))" }
            : shown(entry.new ?? entry.old, path: entry.path).map { "\(name($0.name)) \(value($0.value))" }
        return parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")
    }

    /// The kinds of change and their entries, in the order reports list them.
    static func kinds(_ relation: RelationDiff) -> [(kind: String, sign: String, entries: [DiffEntry])] {
        [("added", "+", relation.added), ("removed", "\u{2212}", relation.removed), ("changed", "~", relation.changed)]
            .filter { !$0.2.isEmpty }
    }

    /// `3 added, 1 removed, 2 changed`.
    static func counts(_ relation: RelationDiff) -> String {
        kinds(relation).map { "\(CountText.grouped($0.entries.count)) \($0.kind)" }.joined(separator: ", ")
    }

    /// Findings in report order, grouped by rule.
    static func byRule(_ findings: [Finding]) -> [(rule: String, findings: [Finding])] {
        var groups: [(rule: String, findings: [Finding])] = []
        for finding in findings {
            if groups.last?.rule == finding.rule {
                groups[groups.count - 1].findings.append(finding)
            } else {
                groups.append((finding.rule, [finding]))
            }
        }
        return groups
    }

    private static let json = JSONWriter(pretty: false)
}
