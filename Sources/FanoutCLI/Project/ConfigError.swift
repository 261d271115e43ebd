/// Why a project configuration file could not be used (a usage error: exit code 2).
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as the user named it.
    public let file: String
    /// The 1-based line the problem is on, when known.
    public let line: Int?
    /// What is wrong, e.g. `[rules] like-count-mismatch = "loud": expected off, info, warning or error`.
    public let message: String

    /// An error in `file` at `line`.
    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `fanout.toml:7: [rules] like-count-mismatch = "loud": expected off, info, warning or error`.
    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}
