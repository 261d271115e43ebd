import FanoutCore
import FanoutJSON
import Foundation

/// The report as SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
///
/// The driver lists every rule with its summary, explanation and default level. Each result has `ruleId`,
/// `ruleIndex`, `level` (`error`, `warning`, `note`), `message.text`, a logical location whose
/// `fullyQualifiedName` is the database path, the export file as physical location, and a
/// `partialFingerprints` entry computed from rule and first path only, so that code scanning tracks a finding
/// across runs however its counts change. Rules that did not run are tool configuration notifications.
package enum SARIFReport {
    /// The SARIF schema the report follows.
    package static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The `partialFingerprints` key; its value is ``Fingerprint/of(rule:path:)``.
    package static let fingerprintKey = "fanoutRulePath/v1"

    /// The SARIF log as pretty-printed JSON.
    package static func render(_ result: AuditResult, info: ReportInfo) -> String {
        JSONWriter(pretty: true, sortKeys: true).write(value(result, info: info)) + "\n"
    }

    /// The SARIF log.
    package static func value(_ result: AuditResult, info: ReportInfo) -> JSONValue {
        let descriptors = RuleCatalog.descriptors
        var ruleIndex: [String: Int] = [:]
        for (i, rule) in descriptors.enumerated() { ruleIndex[rule.id] = i }
        let rules = descriptors.map { rule in
            object([
                ("id", .string(rule.id)),
                ("shortDescription", object([("text", .string(rule.summary))])),
                ("fullDescription", object([("text", .string(rule.explanation))])),
                ("help", object([("text", .string(rule.explanation))])),
                ("defaultConfiguration", object([("level", .string(level(rule.defaultSeverity)))])),
                ("properties", object([("mechanicalFix", .bool(rule.isMechanical))])),
            ])
        }
        let artifact = artifactURI(info.exportName)
        let results = result.findings.map { finding in
            let path = finding.paths.first ?? ""
            var location: [(String, JSONValue)] = [
                ("logicalLocations", .array(finding.paths.map { path in
                    object([("fullyQualifiedName", .string(path)), ("name", .string(lastKey(path))), ("kind", .string("member"))])
                })),
            ]
            if let artifact {
                // Code scanning shows a result only with a physical location and a start line; an export's
                // findings have no meaningful line, so they point at the file as a whole.
                location.append(("physicalLocation", object([
                    ("artifactLocation", object([("uri", .string(artifact))])),
                    ("region", object([("startLine", .int(1))])),
                ])))
            }
            var members: [(String, JSONValue)] = [
                ("ruleId", .string(finding.rule)),
                ("level", .string(level(finding.severity))),
                ("message", object([("text", .string("\(finding.message) (\(path))"))])),
                ("locations", .array([object(location)])),
                ("partialFingerprints", object([(fingerprintKey, .string(Fingerprint.of(rule: finding.rule, path: path)))])),
                ("properties", object([
                    ("paths", .array(finding.paths.map(JSONValue.string))),
                    ("expected", finding.expected ?? .null), ("actual", finding.actual ?? .null),
                    ("fix", object(finding.fix.map { ($0.path, $0.value) })),
                ])),
            ]
            if let index = ruleIndex[finding.rule] { members.append(("ruleIndex", .int(index))) }
            return object(members)
        }
        let notifications = result.skipped.map { skipped in
            object([
                ("descriptor", object([("id", .string(skipped.rule))])),
                ("level", .string("note")),
                ("message", object([("text", .string("\(skipped.rule) did not run: \(skipped.reason)"))])),
            ])
        }
        let run = object([
            ("tool", object([("driver", object([
                ("name", .string("fanout")), ("rules", .array(rules)),
            ]))])),
            ("invocations", .array([object([
                ("executionSuccessful", .bool(true)),
                ("toolConfigurationNotifications", .array(notifications)),
            ])])),
            ("results", .array(results)),
            ("properties", object([("schema", .string(info.schemaName)), ("export", .string(info.exportName))])),
        ])
        return object([("$schema", .string(schemaURI)), ("version", .string("2.1.0")), ("runs", .array([run]))])
    }

    /// SARIF's level for a severity.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// The export as a URI: relative paths stay relative (to the repository, where code scanning looks for
    /// them), absolute ones become `file://` URIs; nil for standard input.
    static func artifactURI(_ exportName: String) -> String? {
        guard exportName != "-", exportName != "standard input" else { return nil }
        let encoded = exportName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? exportName
        return exportName.hasPrefix("/") ? "file://" + encoded : encoded
    }

    private static func lastKey(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    private static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { (key: $0.0, value: $0.1) })
    }
}
