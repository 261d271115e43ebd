/// A known finding in a baseline: its rule and first database path, never a line number, so that it keeps
/// matching when the export is re-exported, reformatted or grows.
public struct BaselineEntry: Sendable, Hashable, Comparable {
    /// The rule id.
    public var rule: String
    /// The finding's first path.
    public var path: String

    /// An entry.
    public init(rule: String, path: String) {
        self.rule = rule
        self.path = path
    }

    /// The entry a finding is matched by.
    public init(_ finding: Finding) {
        self.init(rule: finding.rule, path: finding.paths.first ?? "")
    }

    /// Orders by rule, then path, by UTF-8 bytes (the order of the baseline file).
    public static func < (lhs: BaselineEntry, rhs: BaselineEntry) -> Bool {
        if lhs.rule != rhs.rule { return lhs.rule.utf8.lexicographicallyPrecedes(rhs.rule.utf8) }
        return lhs.path.utf8.lexicographicallyPrecedes(rhs.path.utf8)
    }
}
