/// Why a site or report could not be rendered. Every case is an input or usage error (exit code 2); a folder or
/// file that cannot be written is an `OutputError`.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// A template is missing or does not parse.
    case template(file: String, message: String)
    /// A template is wrong at a line: a syntax error, or with `--strict` a name no page provides.
    case templateLine(file: String, line: Int, message: String)
    /// A content page is unreadable.
    case content(file: String, message: String)
    /// Two pages would be written to the same file (`Content/report.md` and the validation report), each named
    /// by where it comes from.
    case samePath(path: String, first: String, second: String)
    /// Two users' or two posts' keys would get one file name (`kind`: `users`, `posts`), so one page would be written
    /// over the other: only keys too long to be escaped are hashed, and only a SHA-256 collision gets here
    /// (``SafeFileName``).
    case sameFileName(name: String, kind: String, first: String, second: String)

    /// One line for stderr.
    public var description: String {
        switch self {
        case .template(let file, let message): "template \(file): \(message)"
        case .templateLine(let file, let line, let message): "\(file):\(line): \(message)"
        case .content(let file, let message): "content \(file): \(message)"
        case .samePath(let path, let first, let second):
            "two pages would be written to \(path): \(first) and \(second); rename one of them"
        case .sameFileName(let name, let kind, let first, let second):
            "the \(kind) \(first.debugDescription) and \(second.debugDescription) would share the file name \(name); "
                + "no page is written over another"
        }
    }
}
