/// Findings a team has accepted for now, so that a CI run fails on new findings only (like detekt's baseline).
public struct Baseline: Sendable, Equatable {
    /// The entries, sorted and without repeats.
    public let entries: [BaselineEntry]

    /// A baseline of `entries`.
    public init(entries: [BaselineEntry]) {
        self.entries = Array(Set(entries)).sorted()
    }

    /// The baseline that accepts every finding of `findings`.
    public init(findings: [Finding]) {
        self.init(entries: findings.map(BaselineEntry.init))
    }

    /// `result` without the findings this baseline accepts, and what was hidden and what is fixed.
    ///
    /// Findings match by rule and first path only, whatever their severity or message.
    public func apply(to result: AuditResult) -> (result: AuditResult, outcome: BaselineOutcome) {
        let known = Set(entries)
        var matched = Set<BaselineEntry>()
        var remaining = result
        remaining.findings = result.findings.filter { finding in
            let entry = BaselineEntry(finding)
            guard known.contains(entry) else { return true }
            matched.insert(entry)
            return false
        }
        let fixed = entries.filter { !matched.contains($0) }
        return (remaining, BaselineOutcome(hidden: result.findings.count - remaining.findings.count, fixed: fixed))
    }
}
