import ArgumentParser
import FanoutCore

/// The severity at or above which findings fail a run (exit code 1), or `never`: `--fail-on` and `fail_on` in
/// fanout.toml.
public enum FailOn: String, Sendable, CaseIterable, ExpressibleByArgument {
    /// Fail on errors.
    case error
    /// Fail on warnings and errors.
    case warning
    /// Fail on any finding.
    case info
    /// Never fail because of findings.
    case never

    /// The threshold severity, or nil for `never`.
    public var threshold: Severity? { Severity(rawValue: rawValue) }

    /// The values, as help texts and messages list them: `error, warning, info or never`.
    static var listed: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
