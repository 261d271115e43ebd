/// How much a finding matters. Ordered: `info` < `warning` < `error`.
public enum Severity: String, Sendable, Comparable, CaseIterable, Codable {
    /// Worth knowing, not wrong.
    case info
    /// Probably wrong, harmless to readers of the data.
    case warning
    /// Wrong: the app shows users something untrue.
    case error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// Orders by importance.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
