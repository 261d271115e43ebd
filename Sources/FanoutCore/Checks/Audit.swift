/// A rule that did not run, and why.
public struct SkippedRule: Sendable, Equatable {
    /// The rule id.
    public var rule: String
    /// Why: switched off, or the schema lacks a relation.
    public var reason: String
}

/// The result of checking one export.
public struct AuditResult: Sendable {
    /// Findings ordered by rule (catalog order), then first path.
    public var findings: [Finding]
    /// The rules that ran.
    public var rulesRun: [RuleDescriptor]
    /// The rules that did not run.
    public var skipped: [SkippedRule]

    /// The number of findings at each severity.
    public func count(_ severity: Severity) -> Int { findings.count { $0.severity == severity } }

    /// Whether any finding is at or above `threshold`.
    public func hasFindings(atOrAbove threshold: Severity) -> Bool {
        findings.contains { $0.severity >= threshold }
    }
}

/// Runs the rule catalogue over an export.
public enum Audit {
    /// Checks `context` with the rules `configuration` enables.
    public static func run(_ context: CheckContext, configuration: AuditConfiguration = AuditConfiguration()) -> AuditResult {
        var findings: [Finding] = []
        var ran: [RuleDescriptor] = []
        var skipped: [SkippedRule] = []
        for rule in RuleCatalog.rules {
            let id = rule.descriptor.id
            let setting = configuration.settings[id] ?? .severity(rule.descriptor.defaultSeverity)
            guard case .severity(let severity) = setting else {
                skipped.append(SkippedRule(rule: id, reason: "switched off by configuration"))
                continue
            }
            if let missing = rule.missingRequirement(in: context.dataset.schema) {
                skipped.append(SkippedRule(rule: id, reason: missing))
                continue
            }
            ran.append(rule.descriptor)
            var found = rule.findings(in: context)
            for i in found.indices { found[i].severity = severity }
            found.sort { ($0.paths.first ?? "", $0.message) < ($1.paths.first ?? "", $1.message) }
            findings += found
        }
        return AuditResult(findings: findings, rulesRun: ran, skipped: skipped)
    }
}
