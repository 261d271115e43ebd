/// What every rule declares about itself.
public struct RuleDescriptor: Sendable, Equatable {
    /// The stable id used on the command line and in reports.
    public let id: String
    /// The severity unless configured otherwise.
    public let defaultSeverity: Severity
    /// One line: what the rule verifies.
    public let summary: String
    /// A paragraph: why the copies drift and what the fix does.
    public let explanation: String
    /// Whether the rule's findings carry a mechanical fix, so that the repair patch removes them.
    public let isMechanical: Bool

    /// A descriptor; rules are mechanical unless they say otherwise.
    package init(id: String, defaultSeverity: Severity, summary: String, explanation: String, isMechanical: Bool = true)
    {
        self.id = id
        self.defaultSeverity = defaultSeverity
        self.summary = summary
        self.explanation = explanation
        self.isMechanical = isMechanical
    }
}

/// What a rule reads: the export and what it implies.
public struct CheckContext: Sendable {
    /// The export.
    public let dataset: Dataset
    /// What the export implies.
    public let derived: DerivedData

    /// A context over `dataset` and its derivation.
    public init(dataset: Dataset, derived: DerivedData) {
        self.dataset = dataset
        self.derived = derived
    }

    /// The username (else display name) of `key`, or the key itself when the user is unknown or has neither, for messages.
    package func name(_ key: KeyID) -> String {
        // A post whose owner field is missing or not a string has `noKey` as its owner; it has no key to show.
        guard key != noKey else { return "no one" }
        if let u = derived.user(key), let name = dataset.users[u].shownName { return name }
        return dataset.key(key)
    }
}

/// A consistency rule: finds one kind of disagreement between copies.
package protocol ConsistencyRule: Sendable {
    /// The rule's id, severity and texts.
    var descriptor: RuleDescriptor { get }
    /// Why the rule cannot run on `schema`, or nil when it can.
    func missingRequirement(in schema: Schema) -> String?
    /// The rule's findings, at its default severity.
    func findings(in context: CheckContext) -> [Finding]
    /// The same findings as one query over the tables of `fanout tables`, for an engine where the data is
    /// (docs/tables.md); run only where `missingRequirement` is nil.
    func sql(_ q: SQLContext) -> String
}

extension ConsistencyRule {
    /// Builds a finding of this rule at its default severity.
    func finding(
        _ message: String, paths: [String], expected: JSONValueConvertible? = nil,
        actual: JSONValueConvertible? = nil, fix: [PatchEntry] = []
    ) -> Finding {
        Finding(
            rule: descriptor.id, severity: descriptor.defaultSeverity, message: message, paths: paths,
            expected: expected?.jsonValue, actual: actual?.jsonValue, fix: fix
        )
    }
}
