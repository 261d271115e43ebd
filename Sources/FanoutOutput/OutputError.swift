/// Why an output could not be written. Nothing was put in place: the previous file or folder, if any, is as it
/// was (a usage or input error, exit code 2).
public struct OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or folder, as the user named it.
    public let path: String
    /// What went wrong, e.g. `cannot write: No space left on device`.
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// One line for stderr.
    public var description: String { "\(path): \(message)" }
}
