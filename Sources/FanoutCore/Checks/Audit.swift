import Dispatch
import FanoutLocked

/// A rule that did not run, and why.
public struct SkippedRule: Sendable, Equatable {
    /// The rule id.
    public var rule: String
    /// Why: switched off, or the schema lacks a relation.
    public var reason: String

    /// A skipped rule.
    public init(rule: String, reason: String) {
        self.rule = rule
        self.reason = reason
    }
}

/// The result of checking one export.
public struct AuditResult: Sendable {
    /// Findings ordered by rule (catalog order), then first path.
    public var findings: [Finding]
    /// The rules that ran.
    public var rulesRun: [RuleDescriptor]
    /// The rules that did not run.
    public var skipped: [SkippedRule]
    /// The severity each rule that ran reported at, where configuration changed it from the default.
    public var severities: [String: Severity]
    /// The rules of the schema's declarations, run or skipped (docs/layouts.md "Declaring your app's copies"), which
    /// reports that describe every rule (SARIF) list after the built-in ones.
    public var declaredRules: [RuleDescriptor]
    /// How long each rule that ran took, in seconds (its own thread's wall time), for `FANOUT_TIMINGS` and the
    /// benchmark; empty for results read back from a report.
    public var ruleSeconds: [(rule: String, seconds: Double)] = []

    /// A result (the audit makes these; reports and tests may too).
    public init(
        findings: [Finding], rulesRun: [RuleDescriptor], skipped: [SkippedRule], severities: [String: Severity] = [:],
        declaredRules: [RuleDescriptor] = []
    ) {
        self.findings = findings
        self.rulesRun = rulesRun
        self.skipped = skipped
        self.severities = severities
        self.declaredRules = declaredRules
    }

    /// Every rule of the run, run or skipped, in report order: the built-in ones (those of relations the schema
    /// does not place are not part of it), then the declared ones.
    public var allRules: [RuleDescriptor] {
        let ids = Set(rulesRun.map(\.id) + skipped.map(\.rule))
        return (RuleCatalog.descriptors + declaredRules).filter { ids.contains($0.id) }
    }

    /// The severity `rule` reported at in this run.
    public func severity(of rule: RuleDescriptor) -> Severity { severities[rule.id] ?? rule.defaultSeverity }

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
    ///
    /// Rules only read the dataset and its derivation, so they run in parallel, one task per rule; results
    /// are put back in catalog order, so the report is the same whatever the scheduling.
    public static func run(_ context: CheckContext, configuration: AuditConfiguration = AuditConfiguration())
        -> AuditResult
    {
        let (ran, skipped, severities) = plan(context.dataset.schema, configuration)
        let results = Locked([[Finding]](repeating: [], count: ran.count))
        let seconds = Locked([Double](repeating: 0, count: ran.count))
        let tasks = ran
        DispatchQueue.concurrentPerform(iterations: tasks.count) { i in
            let start = DispatchTime.now().uptimeNanoseconds
            defer { seconds.withLock { $0[i] = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 } }
            var found = tasks[i].rule.findings(in: context)
            for j in found.indices { found[j].severity = tasks[i].severity }
            found.sort { ($0.paths.first ?? "", $0.message) < ($1.paths.first ?? "", $1.message) }
            results.withLock { $0[i] = found }
        }
        var result = AuditResult(
            findings: results.value.flatMap { $0 }, rulesRun: ran.map(\.rule.descriptor), skipped: skipped,
            severities: severities, declaredRules: RuleCatalog.declaredDescriptors(for: context.dataset.schema))
        result.ruleSeconds = zip(ran, seconds.value).map { ($0.rule.descriptor.id, $1) }
        return result
    }

    /// The rules `configuration` and `schema` let run, each with its severity, and the others with the reason,
    /// in catalog order: the one decision `check` and `fanout sql` share.
    static func plan(_ schema: Schema, _ configuration: AuditConfiguration)
        -> (
            ran: [(rule: any ConsistencyRule, severity: Severity)], skipped: [SkippedRule],
            severities: [String: Severity]
        )
    {
        var ran: [(rule: any ConsistencyRule, severity: Severity)] = []
        var skipped: [SkippedRule] = []
        var severities: [String: Severity] = [:]
        for rule in RuleCatalog.rules(for: schema) {
            let id = rule.descriptor.id
            guard RuleCatalog.isPlaced(id, in: schema) else { continue }
            let setting = configuration.settings[id] ?? .severity(rule.descriptor.defaultSeverity)
            guard case .severity(let severity) = setting else {
                skipped.append(SkippedRule(rule: id, reason: "switched off by configuration"))
                continue
            }
            if let missing = rule.missingRequirement(in: schema) {
                skipped.append(SkippedRule(rule: id, reason: missing))
                continue
            }
            ran.append((rule, severity))
            if severity != rule.descriptor.defaultSeverity { severities[id] = severity }
        }
        return (ran, skipped, severities)
    }
}
