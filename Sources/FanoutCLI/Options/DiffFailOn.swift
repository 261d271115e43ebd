import ArgumentParser
import FanoutCore

/// `fanout diff --fail-on`: the severity at or above which a new finding fails the run (exit 1), or `never`.
/// Findings both exports have never fail a diff: that is what `check` is for (docs/diff-and-history.md).
enum DiffFailOn: String, CaseIterable, ExpressibleByArgument {
    case newError = "new-error"
    case newWarning = "new-warning"
    case never

    /// The threshold severity, or nil for `never`.
    var threshold: Severity? {
        switch self {
        case .newError: .error
        case .newWarning: .warning
        case .never: nil
        }
    }
}
