/// What changed in the audit between two exports: the findings the newer one has that the older one had not
/// (new), those the older one had that are gone (fixed), and each rule's counts. Findings match as a baseline
/// matches them, by rule and first path (``Baseline``): the older export's findings are the newer one's
/// baseline. docs/diff-and-history.md, "Findings".
public struct AuditDiff: Sendable {
    /// One rule's findings in each export.
    public struct RuleCounts: Sendable, Equatable {
        public var rule: String
        /// The severity it ran at in the newer export (the older one's where it ran there only).
        public var severity: Severity
        public var before: Int, after: Int
        /// New findings, and fixed ones.
        public var new: Int, fixed: Int
    }

    /// Findings of the newer export no finding of the older one matches, in report order.
    public var new: [Finding]
    /// Findings of the older export no finding of the newer one matches, in report order.
    public var fixed: [Finding]
    /// Findings of the newer export that the older one had too.
    public var unchanged: Int
    /// Every rule that ran in either export, in report order (the newer export's, then the older one's others).
    public var rules: [RuleCounts]

    /// Compares the audit of the older export with that of the newer one.
    public init(old: AuditResult, new: AuditResult) {
        let (remaining, outcome) = Baseline(findings: old.findings).apply(to: new)
        let fixedEntries = Set(outcome.fixed)
        self.new = remaining.findings
        fixed = old.findings.filter { fixedEntries.contains(BaselineEntry($0)) }
        unchanged = outcome.hidden
        var rules: [RuleCounts] = []
        for (result, isNew) in [(new, true), (old, false)] {
            for rule in result.rulesRun where !rules.contains(where: { $0.rule == rule.id }) {
                let count = { (findings: [Finding]) in findings.count { $0.rule == rule.id } }
                rules.append(
                    RuleCounts(
                        rule: rule.id, severity: result.severity(of: rule), before: count(old.findings),
                        after: count(new.findings),
                        new: isNew ? count(remaining.findings) : 0, fixed: count(fixed)))
            }
        }
        self.rules = rules
    }

    /// The number of new findings at `severity`.
    public func newCount(_ severity: Severity) -> Int { new.count { $0.severity == severity } }
}
