/// How a rule is configured: off, or on at a severity.
public enum RuleSetting: Sendable, Equatable {
    /// The rule does not run.
    case off
    /// The rule runs and reports at this severity.
    case severity(Severity)

    /// Parses `off`, `info`, `warning` or `error`.
    public init?(_ text: String) {
        if text == "off" {
            self = .off
        } else if let severity = Severity(rawValue: text) {
            self = .severity(severity)
        } else {
            return nil
        }
    }
}

/// Which rules run and at which severity.
public struct AuditConfiguration: Sendable, Equatable {
    /// Per-rule settings; rules not named run at their default severity.
    public var settings: [String: RuleSetting]

    /// A configuration; every rule at its default unless `settings` says otherwise.
    public init(settings: [String: RuleSetting] = [:]) { self.settings = settings }
}
