/// Where a kind's pages live, relative to the site's root: the pattern of its first page and, for a kind whose list
/// spans pages, the pattern of page N (`users/{user}/liked.html`, `users/{user}/liked-{n}.html`).
///
/// In a pattern, `{user}`, `{post}`, `{content}` or `{asset}` stands for the file name of the page's subject
/// (``PageSubject``: a key made safe by ``SafeFileName``, a `Content/` page's name, an asset's file name) and `{n}` for
/// the page's number. The pattern is the one place a path is said: `build` writes there, links point there, and
/// `serve` takes a request's path apart with the same pattern (``match(_:)``) to find the page it names.
struct PagePath: Sendable {
    /// The first page's pattern: page 1 keeps the plain name, so that links to it never change.
    let first: Pattern
    /// Page N's pattern (N from 2), with `{n}`; nil for a kind with one page per subject.
    let other: Pattern?
    /// The patterns as written.
    private let texts: (first: String, other: String?)

    init(_ first: String, then other: String? = nil) {
        texts = (first, other)
        self.first = Pattern(first)
        self.other = other.map(Pattern.init)
        precondition(!self.first.hasNumber && self.other?.hasNumber != false, "{n} is in page N's pattern: \(first)")
    }

    /// The path of page `page` (from 1) of the subject whose file name is `name`.
    func path(name: String, page: Int = 1) -> String {
        (page == 1 ? first : other ?? first).render(name: name, number: page)
    }

    /// The same paths ending in `new` where they end in `old` (`index.md` for `index.html`).
    func replacingEnding(_ old: String, with new: String) -> PagePath {
        func replaced(_ text: String) -> String {
            precondition(text.hasSuffix(old), "\(text) does not end in \(old)")
            return text.dropLast(old.count) + new
        }
        return PagePath(replaced(texts.first), then: texts.other.map(replaced))
    }

    /// Page `page`'s file name in its folder: what the pages of one list link each other by.
    func file(page: Int) -> String {
        let path = path(name: "", page: page)
        // The path's last part (trailing slashes aside), found by byte: a timeline page links a handful of its
        // list's pages.
        let bytes = path.utf8
        let slash = UInt8(ascii: "/")
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        let start = bytes[..<end].lastIndex(of: slash).map(bytes.index(after:)) ?? bytes.startIndex
        return start < end ? String(path[start..<end]) : path
    }

    /// Whether a page of the kind may sit at the site's root, beside `Content/` pages and assets.
    var mayBeAtRoot: Bool { [first, other].contains { $0?.hasFolder == false } }

    /// The subject's file name and the page number `path` holds, when it has the shape of one of the patterns; a
    /// candidate only (`page-02.html` has the shape of page 2), which is the page's when the page's path is
    /// exactly `path` again. `{n}` is digits and at least 1, a name at least one byte; neither holds a `/`.
    func match(_ path: String) -> (name: String, page: Int)? {
        let bytes = Array(path.utf8)
        if let found = first.match(bytes) { return (found.name, 1) }
        guard let found = other?.match(bytes), let number = found.number, number >= 1 else { return nil }
        return (found.name, number)
    }

    /// A path pattern, split into its literal text and its placeholders.
    struct Pattern: Sendable {
        enum Token: Sendable {
            case literal([UInt8])
            /// `{user}`, `{post}`, `{content}`, `{asset}`: the subject's file name; the placeholder's word is kept
            /// so that a declaration can be checked against its subject.
            case name(String)
            /// `{n}`: the page number.
            case number
        }

        let tokens: [Token]

        init(_ text: String) {
            var tokens: [Token] = []
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { tokens.append(.literal(Array(rest[..<open].utf8))) }
                let word = String(rest[rest.index(after: open)..<close])
                tokens.append(word == "n" ? .number : .name(word))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { tokens.append(.literal(Array(rest.utf8))) }
            self.tokens = tokens
        }

        var hasNumber: Bool { tokens.contains { if case .number = $0 { true } else { false } } }
        /// The placeholder's word for the subject's name (`user`), if the pattern has one.
        var nameWord: String? { tokens.lazy.compactMap { if case .name(let word) = $0 { word } else { nil } }.first }
        var hasFolder: Bool {
            tokens.contains { if case .literal(let text) = $0 { text.contains(UInt8(ascii: "/")) } else { false } }
        }

        func render(name: String, number: Int) -> String {
            var path = ""
            for token in tokens {
                switch token {
                case .literal(let text): path += String(decoding: text, as: UTF8.self)
                case .name: path += name
                case .number: path += String(number)
                }
            }
            return path
        }

        func match(_ path: [UInt8]) -> (name: String, number: Int?)? {
            Self.match(tokens[...], path[...], name: "", number: nil)
        }

        /// Matches token by token; a placeholder tries every length, shortest first, since the literal after it
        /// (`.html`) may also occur inside it.
        private static func match(
            _ tokens: ArraySlice<Token>, _ rest: ArraySlice<UInt8>, name: String, number: Int?
        ) -> (name: String, number: Int?)? {
            guard let token = tokens.first else { return rest.isEmpty ? (name, number) : nil }
            switch token {
            case .literal(let text):
                guard rest.starts(with: text) else { return nil }
                return match(tokens.dropFirst(), rest.dropFirst(text.count), name: name, number: number)
            case .name, .number:
                let isNumber = if case .number = token { true } else { false }
                var end = rest.startIndex
                while end < rest.endIndex, rest[end] != UInt8(ascii: "/") {
                    if isNumber && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(rest[end]) { return nil }
                    end += 1
                    let value = String(decoding: rest[..<end], as: UTF8.self)
                    let found =
                        isNumber
                        ? Int(value).flatMap { match(tokens.dropFirst(), rest[end...], name: name, number: $0) }
                        : match(tokens.dropFirst(), rest[end...], name: value, number: number)
                    if let found { return found }
                }
                return nil
            }
        }
    }
}
