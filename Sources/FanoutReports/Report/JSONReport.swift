import FanoutCore
import FanoutJSON

/// The versioned JSON report. Version 1:
///
/// `{"version": 1, "tool": "fanout", "export": …, "schema": …, "summary": {"errors", "warnings", "info",
/// "total", "rules_run": […], "rules_skipped": [{"rule", "reason"}]}, "findings": [{"rule", "severity",
/// "message", "paths": […], "expected", "actual", "fix": {path: value}}]}`; `expected`/`actual` are JSON
/// values (`null` for absent); keys are sorted, findings ordered by rule then path. Runs with a baseline add
/// `summary.baseline`: `{"hidden": n, "fixed": [{"rule", "path"}]}`, and located findings (``Finding/location``)
/// add `file`, `line` and `column` (and `byte_offset`, in a Firestore export's `output-N` file); a finding whose
/// `expected` or `actual` is no single value (rather than a JSON null) names it in `no_value` (`["expected"]`).
/// `summary.severities` gives the severity each rule that ran reported at (`--rule R=S` re-grades rules, and a rule
/// without findings shows it nowhere else), and
/// `summary.timeline_coverage` (``TimelineCoverage``) what the HTML report's coverage chart draws, when the
/// report was made with the derived data. All are additions, so still version 1: everything the other formats
/// show is in it, and `fanout report` renders them from it (``parse(_:)``).
package enum JSONReport {
    /// The report format's version; bumped on any incompatible change.
    package static let version = 1

    /// The rules of a schema's declarations as `summary.declared_rules` lists them, for `fanout report` (which knows
    /// only the built-in ones) and the Spark job.
    package static func declaredRules(_ rules: [RuleDescriptor]) -> JSONValue {
        .array(
            rules.map { rule in
                object([
                    ("id", .string(rule.id)), ("severity", .string(rule.defaultSeverity.rawValue)),
                    ("summary", .string(rule.summary)),
                    ("explanation", .string(rule.explanation)), ("mechanical", .bool(rule.isMechanical)),
                ])
            })
    }

    /// The report as pretty-printed, canonical JSON.
    package static func render(_ result: AuditResult, info: ReportInfo, coverage: TimelineCoverage? = nil) -> String {
        JSONWriter(pretty: true, sortKeys: true).write(value(result, info: info, coverage: coverage)) + "\n"
    }

    /// The report as a JSON value.
    package static func value(_ result: AuditResult, info: ReportInfo, coverage: TimelineCoverage? = nil) -> JSONValue {
        var summaryMembers: [(String, JSONValue)] = [
            ("errors", .int(result.count(.error))), ("warnings", .int(result.count(.warning))),
            ("info", .int(result.count(.info))), ("total", .int(result.findings.count)),
            ("rules_run", .array(result.rulesRun.map { .string($0.id) })),
            (
                "rules_skipped",
                .array(result.skipped.map { object([("rule", .string($0.rule)), ("reason", .string($0.reason))]) })
            ),
            ("severities", object(result.rulesRun.map { ($0.id, .string(result.severity(of: $0).rawValue)) })),
        ]
        if let coverage { summaryMembers.append(("timeline_coverage", coverage.jsonValue)) }
        if !result.declaredRules.isEmpty {
            summaryMembers.append(("declared_rules", declaredRules(result.declaredRules)))
        }
        if let baseline = info.baseline {
            summaryMembers.append(
                (
                    "baseline",
                    object([
                        ("hidden", .int(baseline.hidden)),
                        (
                            "fixed",
                            .array(
                                baseline.fixed.map { object([("rule", .string($0.rule)), ("path", .string($0.path))]) })
                        ),
                    ])
                ))
        }
        let summary = object(summaryMembers)
        let findings = result.findings.map(findingValue)
        var members: [(String, JSONValue)] = [
            ("version", .int(version)), ("tool", .string("fanout")), ("export", .string(info.exportName)),
            ("schema", .string(info.schemaName)),
        ]
        // Only for a folder of several namespaces, so that every other report reads as before.
        if !info.namespaces.isEmpty { members.append(("namespaces", .array(info.namespaces.map { .string($0) }))) }
        members += [("summary", summary), ("findings", .array(findings))]
        return object(members)
    }

    /// One finding as the report's `findings` list holds it (and `fanout diff`'s lists of new and fixed ones).
    package static func findingValue(_ finding: Finding) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("rule", .string(finding.rule)), ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)), ("paths", .array(finding.paths.map(JSONValue.string))),
            ("expected", finding.expected ?? .null), ("actual", finding.actual ?? .null),
            ("fix", object(finding.fix.map { ($0.path, $0.value) })),
        ]
        // JSON has one null for two things: a value that is null (a missing entry) and no single value at all
        // (`key-invalid` expects none); the reports show them differently, so the second is named.
        let noValue = [("expected", finding.expected), ("actual", finding.actual)].filter { $0.1 == nil }
        if !noValue.isEmpty { members.append(("no_value", .array(noValue.map { .string($0.0) }))) }
        if let location = finding.location {
            members += [
                ("file", .string(location.file)), ("line", .int(location.line)), ("column", .int(location.column)),
            ]
            if let offset = location.byteOffset { members.append(("byte_offset", .int(offset))) }
        }
        return object(members)
    }

    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { (key: $0.0, value: $0.1) })
    }
}

extension JSONValue {
    /// An integer value.
    static func int(_ n: Int) -> JSONValue { .number(JSONNumber(Int64(n))) }
}
