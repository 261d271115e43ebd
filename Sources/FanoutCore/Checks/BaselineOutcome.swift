/// What applying a baseline did to a run's findings.
public struct BaselineOutcome: Sendable, Equatable {
    /// How many findings the baseline hid.
    public var hidden: Int
    /// Baseline entries that no finding matched any more: fixed since the baseline was written.
    public var fixed: [BaselineEntry]

    /// An outcome.
    public init(hidden: Int, fixed: [BaselineEntry]) {
        self.hidden = hidden
        self.fixed = fixed
    }
}
