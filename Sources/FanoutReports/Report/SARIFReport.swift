import FanoutCore
import FanoutJSON
import Foundation

/// The report as SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
///
/// The driver lists every rule with its summary, explanation and default level. Each result has `ruleId`,
/// `ruleIndex`, `level` (`error`, `warning`, `note`), `message.text`, a logical location whose
/// `fullyQualifiedName` is the database path, and a physical location: the export's file (``artifactURI(_:)``)
/// and the line and column of the first path's key (``Finding/location``; line 1 when there is none, as for a
/// Parse `.zip`); in a Firestore export, the `output-N` file and the `byteOffset` of the document's record, beside
/// the line and column of that byte. Code scanning rejects a result without an artifact location, so standard
/// input has one too.
/// `partialFingerprints` are computed from rule and first path only: ``fingerprintKey`` and GitHub's
/// `primaryLocationLineHash`, which GitHub would otherwise hash from the line's text (equal for every key of a
/// minified export) — so an alert keeps its identity while counts change and lines move. Rules that did not
/// run are tool configuration notifications. GitHub accepts at most ``maximumResults`` results per run: beyond
/// that the most severe are kept and a tool execution notification says how many were left out.
package enum SARIFReport {
    /// The SARIF schema the report follows.
    package static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The `partialFingerprints` key; its value is ``Fingerprint/of(rule:path:)``.
    package static let fingerprintKey = "fanoutRulePath/v1"
    /// The results GitHub code scanning accepts in one run.
    package static let maximumResults = 25_000
    /// The artifact URI of standard input when it was given no name (`--stdin-filename`).
    package static let standardInputURI = "stdin"

    /// The SARIF log as pretty-printed JSON.
    package static func render(_ result: AuditResult, info: ReportInfo, maximumResults: Int = maximumResults) -> String
    {
        JSONWriter(pretty: true, sortKeys: true).write(value(result, info: info, maximumResults: maximumResults)) + "\n"
    }

    /// The SARIF log.
    package static func value(_ result: AuditResult, info: ReportInfo, maximumResults: Int = maximumResults)
        -> JSONValue
    {
        let descriptors = result.allRules
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
        let kept = mostSevere(result.findings, limit: maximumResults)
        let omitted = result.findings.count - kept.count
        let results = kept.map { finding in
            let path = finding.paths.first ?? ""
            var region: [(String, JSONValue)] = [("startLine", .int(finding.location?.line ?? 1))]
            if let column = finding.location?.column { region.append(("startColumn", .int(column))) }
            // A binary region, in a file that is no text (a Firestore record); the line stays beside it, the same
            // byte's, since code scanning rejects a result whose region has no start line.
            if let offset = finding.location?.byteOffset { region.append(("byteOffset", .int(offset))) }
            let location = object([
                (
                    "logicalLocations",
                    .array(
                        finding.paths.map { path in
                            object([
                                ("fullyQualifiedName", .string(path)), ("name", .string(lastKey(path))),
                                ("kind", .string("member")),
                            ])
                        })
                ),
                (
                    "physicalLocation",
                    object([
                        (
                            "artifactLocation",
                            object([("uri", .string(artifactURI(finding.location?.file ?? info.exportName)))])
                        ),
                        ("region", object(region)),
                    ])
                ),
            ])
            let fingerprint = Fingerprint.of(rule: finding.rule, path: path)
            var members: [(String, JSONValue)] = [
                ("ruleId", .string(finding.rule)),
                ("level", .string(level(finding.severity))),
                ("message", object([("text", .string("\(finding.message) (\(path))"))])),
                ("locations", .array([location])),
                (
                    "partialFingerprints",
                    object([
                        (fingerprintKey, .string(fingerprint)),
                        // GitHub's own key, in its `hash:occurrence` form; set here so GitHub does not compute it.
                        ("primaryLocationLineHash", .string("\(fingerprint):1")),
                    ])
                ),
                (
                    "properties",
                    object([
                        ("paths", .array(finding.paths.map(JSONValue.string))),
                        ("expected", finding.expected ?? .null), ("actual", finding.actual ?? .null),
                        ("fix", object(finding.fix.map { ($0.path, $0.value) })),
                    ])
                ),
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
        var invocation: [(String, JSONValue)] = [
            ("executionSuccessful", .bool(true)),
            ("toolConfigurationNotifications", .array(notifications)),
        ]
        if omitted > 0 {
            let text =
                "\(omitted) of \(result.findings.count) results left out: GitHub code scanning accepts at most "
                + "\(maximumResults) per run, so the most severe \(kept.count) are listed; "
                + "`fanout check \(info.exportName) --format json` lists them all"
            invocation.append(
                (
                    "toolExecutionNotifications",
                    .array([
                        object([
                            ("descriptor", object([("id", .string("results-omitted"))])),
                            ("level", .string("warning")),
                            ("message", object([("text", .string(text))])),
                        ])
                    ])
                ))
        }
        var properties: [(String, JSONValue)] = [
            ("schema", .string(info.schemaName)), ("export", .string(info.exportName)),
        ]
        if omitted > 0 { properties.append(("resultsOmitted", .int(omitted))) }
        let run = object([
            (
                "tool",
                object([
                    (
                        "driver",
                        object([
                            ("name", .string("fanout")), ("rules", .array(rules)),
                        ])
                    )
                ])
            ),
            ("invocations", .array([object(invocation)])),
            // Columns count Unicode scalars (``SourceLocation``), not SARIF's default UTF-16 code units.
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .array(results)),
            ("properties", object(properties)),
        ])
        return object([("$schema", .string(schemaURI)), ("version", .string("2.1.0")), ("runs", .array([run]))])
    }

    /// The first `limit` findings by severity (errors, then warnings, then info), each severity in report order,
    /// listed in report order.
    static func mostSevere(_ findings: [Finding], limit: Int) -> [Finding] {
        guard findings.count > limit else { return findings }
        let chosen = findings.indices.sorted { a, b in
            findings[a].severity != findings[b].severity ? findings[a].severity > findings[b].severity : a < b
        }.prefix(limit)
        return chosen.sorted().map { findings[$0] }
    }

    /// SARIF's level for a severity.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// A file as a URI: relative paths stay relative (to the repository, where code scanning looks for them),
    /// absolute ones become `file://` URIs; standard input without a name (`-`) is ``standardInputURI``.
    static func artifactURI(_ exportName: String) -> String {
        guard exportName != "-", exportName != "standard input" else { return standardInputURI }
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
