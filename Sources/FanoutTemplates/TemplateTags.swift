/// The tags of a Mustache template, found by a scan independent of swift-mustache's parser: for the line and the
/// open section of a syntax error, and for `--strict`, the names a template looks up.
///
/// A set-delimiter tag (`{{=<% %>=}}`) changes the delimiters the scan looks for, as it changes the parser's; a
/// malformed one stops the scan, and ``complete`` says so.
struct TemplateTags {
    struct Tag: Equatable {
        enum Kind: Equatable {
            /// `{{name}}`, `{{{name}}}`, `{{&name}}`.
            case variable
            /// `{{#name}}`, `{{^name}}`: a section, which looks `name` up too.
            case section
            /// `{{$name}}`: a block of a parent template.
            case block
            /// `{{<name}}`: a parent template.
            case parent
            /// `{{>name}}`: a partial.
            case partial
            /// `{{/name}}`.
            case close
            /// `{{!…}}`, `{{%…}}`.
            case other
        }

        let kind: Kind
        /// The name as written, trimmed.
        let name: String
        /// 1-based line and column of the tag's `{{`.
        let line: Int
        let column: Int
    }

    private(set) var tags: [Tag] = []
    /// False when the scan stopped early, at a malformed set-delimiter tag.
    private(set) var complete = true
    /// The line and column of a tag opened with `{{` and never closed, if any.
    private(set) var unterminated: (line: Int, column: Int)?

    init(_ text: String) {
        let bytes = Array(text.utf8)
        var i = 0, line = 1, lineStart = 0
        var opener = Array("{{".utf8), ender = Array("}}".utf8)
        func isOpen(_ at: Int) -> Bool {
            at + opener.count <= bytes.count && bytes[at..<(at + opener.count)].elementsEqual(opener)
        }
        while i < bytes.count {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
                i += 1
                continue
            }
            guard isOpen(i) else {
                i += 1
                continue
            }
            let column = i - lineStart + 1
            // A triple mustache exists only with the default delimiters.
            let triple = opener == Array("{{".utf8) && i + 2 < bytes.count && bytes[i + 2] == UInt8(ascii: "{")
            let start = i + opener.count + (triple ? 1 : 0)
            let closer: [UInt8] = triple ? Array("}}}".utf8) : ender
            var end = start
            while end + closer.count <= bytes.count, !bytes[end..<(end + closer.count)].elementsEqual(closer) {
                end += 1
            }
            guard end + closer.count <= bytes.count else {
                unterminated = (line, column)
                return
            }
            let body = String(decoding: bytes[start..<end], as: UTF8.self)
            let sigil = triple ? nil : body.trimmingLeadingSpaces.first
            let rest = { (s: String) in String(s.trimmingLeadingSpaces.dropFirst()).trimmedSpaces }
            let kind: Tag.Kind
            var name = body.trimmedSpaces
            switch sigil {
            case "#", "^": kind = .section; name = rest(body)
            case "$": kind = .block; name = rest(body)
            case "<": kind = .parent; name = rest(body)
            case ">": kind = .partial; name = rest(body)
            case "/": kind = .close; name = rest(body)
            case "&": kind = .variable; name = rest(body)
            case "!", "%": kind = .other
            case "=":
                // `=<% %>=`: the two new delimiters, apart from each other by spaces.
                let inner = body.trimmedSpaces
                let parts = inner.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard inner.count >= 2, inner.hasSuffix("="), parts.count == 2 else {
                    complete = false
                    return
                }
                opener = Array(parts[0].utf8)
                ender = Array(parts[1].utf8)
                kind = .other
            default: kind = .variable
            }
            tags.append(Tag(kind: kind, name: name, line: line, column: column))
            // Comments may span lines.
            for byte in bytes[i..<end] where byte == 0x0A {
                line += 1
            }
            if let lastNewline = bytes[i..<end].lastIndex(of: 0x0A) { lineStart = lastNewline + 1 }
            i = end + closer.count
        }
    }

    /// The first tag other than a block or a comment whose innermost enclosing section is a parent
    /// (`{{<layout}}{{name}}{{/layout}}`), which Mustache does not allow.
    func firstTagDirectlyInsideAParent() -> Tag? {
        var stack: [Tag] = []
        for tag in tags {
            if stack.last?.kind == .parent, tag.kind != .block, tag.kind != .close, tag.kind != .other { return tag }
            switch tag.kind {
            case .section, .block, .parent: stack.append(tag)
            case .close: if !stack.isEmpty { stack.removeLast() }
            default: break
            }
        }
        return nil
    }

    /// The sections, blocks and parent open at line `line`, column `column`, innermost last.
    func openSections(before line: Int, column: Int) -> [Tag] {
        var stack: [Tag] = []
        for tag in tags where tag.line < line || (tag.line == line && tag.column < column) {
            switch tag.kind {
            case .section, .block, .parent: stack.append(tag)
            case .close: if !stack.isEmpty { stack.removeLast() }
            default: break
            }
        }
        return stack
    }
}

extension String {
    fileprivate var trimmingLeadingSpaces: Substring { drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" } }
    fileprivate var trimmedSpaces: String {
        String(trimmingLeadingSpaces.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.reversed())
    }
}
