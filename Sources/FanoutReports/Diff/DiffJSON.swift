import FanoutCore
import FanoutJSON

/// The diff as JSON (docs/diff-and-history.md, "The JSON report"), version 1, keys sorted, every entry and
/// finding listed (the other formats cap their lists): what `fanout sql --diff`'s runners write too, so that
/// the comparison over tables is checked against this one.
///
/// `{"tool": "fanout", "kind": "diff", "version": 1, "schema", "old": {"export"}, "new": {"export"},
/// "data": [{"relation", "before", "after", "added": [{"path", "value"}], "removed": [{"path", "value"}],
/// "changed": [{"path", "old", "new"}]}], "audit": {"summary": {"new", "new_errors", "new_warnings", "new_info",
/// "fixed", "unchanged"}, "rules": [{"rule", "severity", "before", "after", "new", "fixed"}], "new": [finding],
/// "fixed": [finding]}}`, findings as the JSON report writes them.
enum DiffJSON {
    static let version = 1

    static func render(_ diff: ExportDiff, info: DiffInfo) -> String {
        JSONWriter(pretty: true, sortKeys: true).write(value(diff, info: info)) + "\n"
    }

    static func value(_ diff: ExportDiff, info: DiffInfo) -> JSONValue {
        let data = diff.data.map { relation in
            object([
                ("relation", .string(relation.relation.name)), ("before", .int(relation.before)),
                ("after", .int(relation.after)),
                (
                    "added",
                    .array(relation.added.map { object([("path", .string($0.path)), ("value", $0.new ?? .null)]) })
                ),
                (
                    "removed",
                    .array(relation.removed.map { object([("path", .string($0.path)), ("value", $0.old ?? .null)]) })
                ),
                (
                    "changed",
                    .array(
                        relation.changed.map {
                            object([("path", .string($0.path)), ("old", $0.old ?? .null), ("new", $0.new ?? .null)])
                        })
                ),
            ])
        }
        let audit = diff.audit
        let rules = audit.rules.map { rule in
            object([
                ("rule", .string(rule.rule)), ("severity", .string(rule.severity.rawValue)),
                ("before", .int(rule.before)),
                ("after", .int(rule.after)), ("new", .int(rule.new)), ("fixed", .int(rule.fixed)),
            ])
        }
        let summary = object([
            ("new", .int(audit.new.count)), ("new_errors", .int(audit.newCount(.error))),
            ("new_warnings", .int(audit.newCount(.warning))), ("new_info", .int(audit.newCount(.info))),
            ("fixed", .int(audit.fixed.count)), ("unchanged", .int(audit.unchanged)),
        ])
        return object([
            ("tool", .string("fanout")), ("kind", .string("diff")), ("version", .int(version)),
            ("schema", .string(info.schemaName)),
            ("old", object([("export", .string(info.oldName))])), ("new", object([("export", .string(info.newName))])),
            ("data", .array(data)),
            (
                "audit",
                object([
                    ("summary", summary), ("rules", .array(rules)),
                    ("new", .array(audit.new.map(JSONReport.findingValue))),
                    ("fixed", .array(audit.fixed.map(JSONReport.findingValue))),
                ])
            ),
        ])
    }

    private static func object(_ members: [(String, JSONValue)]) -> JSONValue { JSONReport.object(members) }
}
