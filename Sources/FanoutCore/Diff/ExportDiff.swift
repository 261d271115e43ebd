import Dispatch
import FanoutLocked

/// What changed between two exports of one app (an older and a newer backup): in the data, relation by relation,
/// and in the audit, finding by finding (docs/diff-and-history.md). A value: the comparison reads the two
/// datasets and their audits, and holds only what differs.
public struct ExportDiff: Sendable {
    /// Every relation the schema places, in table order, then the declarations' rows.
    public var data: [RelationDiff]
    public var audit: AuditDiff

    public init(data: [RelationDiff], audit: AuditDiff) {
        self.data = data
        self.audit = audit
    }

    /// Compares two datasets laid out by the same schema, and their audits.
    public init(old: Dataset, new: Dataset, oldAudit: AuditResult, newAudit: AuditResult) {
        precondition(old.schema == new.schema, "diff compares exports of one layout")
        let mapping = KeyMapping(old: old.keys, new: new.keys)
        // Relations are compared at once, the largest first, so that both cores stay busy to the end.
        let relations = DiffRelation.all(in: new.schema)
        let sizes = relations.map { DiffFacts($0, of: new).count }
        let order = relations.indices.sorted { sizes[$0] > sizes[$1] }
        let results = Locked([RelationDiff?](repeating: nil, count: relations.count))
        DispatchQueue.concurrentPerform(iterations: relations.count) { i in
            let relation = relations[order[i]]
            let diff = RelationDiff(relation, old: old, new: new, mapping: mapping)
            results.withLock { $0[order[i]] = diff }
        }
        data = results.value.map { $0! }
        audit = AuditDiff(old: oldAudit, new: newAudit)
    }

    /// Whether a new finding is at or above `threshold`.
    public func hasNewFindings(atOrAbove threshold: Severity) -> Bool {
        audit.new.contains { $0.severity >= threshold }
    }
}
