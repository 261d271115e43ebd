import FanoutCore

/// The severity at or above which findings fail a run (exit code 1), or `never`.
public enum FailThreshold: String, Sendable, Equatable, CaseIterable {
    /// Fail on errors.
    case error
    /// Fail on warnings and errors.
    case warning
    /// Fail on any finding.
    case info
    /// Never fail because of findings.
    case never

    /// The threshold severity, or nil for `never`.
    public var severity: Severity? { Severity(rawValue: rawValue) }
}
