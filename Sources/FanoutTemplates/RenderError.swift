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
    /// A render went past its budget (``RenderBudget``): `nesting`, the sections and partials open when it did, with
    /// their lines; `file` and `line`, the outermost of them; `page`, the page being rendered, when known.
    case renderBudget(file: String, line: Int, page: String?, nesting: String, renders: Int, bytes: Int)
    /// Two users' or two posts' keys would get one file name (`kind`: `users`, `posts`), so one page would be written
    /// over the other: only keys too long to be escaped are hashed, and only a SHA-256 collision gets here
    /// (``SafeFileName``).
    case sameFileName(name: String, kind: String, first: String, second: String)

    /// The error naming `path` as the page being rendered, for a render that went past its budget.
    package func onPage(_ path: String) -> RenderError {
        guard case .renderBudget(let file, let line, nil, let nesting, let renders, let bytes) = self else {
            return self
        }
        return .renderBudget(file: file, line: line, page: path, nesting: nesting, renders: renders, bytes: bytes)
    }

    /// One line for stderr.
    public var description: String {
        switch self {
        case .template(let file, let message): "template \(file): \(message)"
        case .templateLine(let file, let line, let message): "\(file):\(line): \(message)"
        case .content(let file, let message): "content \(file): \(message)"
        case .renderBudget(let file, let line, let page, let nesting, let renders, let bytes):
            "\(file):\(line): rendering \(page ?? "the page") went past the render budget "
                + "(\(CountText.grouped(renders)) lists rendered or \(bytes >> 20) MiB written) in \(nesting): "
                + "sections over lists nested inside each other multiply what a page renders; no page was written"
        case .samePath(let path, let first, let second):
            "two pages would be written to \(path): \(first) and \(second); rename one of them"
        case .sameFileName(let name, let kind, let first, let second):
            "the \(kind) \(first.debugDescription) and \(second.debugDescription) would share the file name \(name); "
                + "no page is written over another"
        }
    }
}
