import FanoutJSON

/// Why an export could not be read. Every case is a usage or input error (exit code 2).
public enum InputError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The bytes are not JSON.
    case syntax(source: String, JSONSyntaxError)
    /// The JSON is fine but is not an export of the expected layout.
    case layout(source: String, message: String)
    /// The schema name or file is unusable.
    case schema(String)

    /// One line for stderr.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .syntax(let source, let error): "\(source): \(error)"
        case .layout(let source, let message): "\(source): \(message)"
        case .schema(let message): message
        }
    }
}
