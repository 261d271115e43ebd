/// Reads a Mustache template into ``TemplateNode``s exactly as swift-mustache 2.1's parser reads it into its tokens
/// (`Template+Parser.swift`: the same standalone lines, whitespace, delimiters and blocks, `Character` by
/// `Character`), so that both engines render the same text from a template.
///
/// Templates are checked by swift-mustache first (``TemplateSet`` keeps its messages, with lines and columns), so
/// this parser only needs to fail, not to explain: it throws ``Unsupported`` for what Fanout's engine leaves to
/// swift-mustache (transforms such as `{{count(posts)}}`, dynamic partials `{{>*name}}`) and for anything
/// swift-mustache would have refused.
struct TemplateParser {
    /// What this engine does not render; the template is rendered by swift-mustache instead.
    struct Unsupported: Error {}

    private struct State {
        var sectionName: String?
        var newLine = true
        var inParent = false
        var inParentTopLevel = false
        var start: [Character] = ["{", "{"]
        var end: [Character] = ["}", "}"]
        /// Inside a parent's block: the first line's indentation, which later lines lose.
        var blockIndent: Int?

        func section(_ name: String, newLine: Bool) -> State {
            var state = self
            state.sectionName = name
            state.inParentTopLevel = false
            if !newLine { state.newLine = false }
            return state
        }

        func parent(_ name: String) -> State {
            var state = self
            state.sectionName = name
            state.newLine = true
            state.inParent = true
            state.inParentTopLevel = true
            return state
        }
    }

    private let text: [Character]
    private var at = 0
    /// The text of the nodes, which ``TemplateText``s point into (see ``TemplateTextPool``).
    private var pool: [UInt8]

    /// The nodes of `template`, their text appended to `pool`.
    static func parse(_ template: String, pool: inout [UInt8]) throws(Unsupported) -> [TemplateNode] {
        var parser = TemplateParser(text: Array(template), pool: pool)
        let nodes = try parser.parse(State())
        pool = parser.pool
        return nodes
    }

    private init(text: [Character], pool: [UInt8]) {
        self.text = text
        self.pool = pool
    }

    /// A text node of `text`.
    private mutating func textNode(_ text: String) -> TemplateNode {
        let start = pool.count
        pool.append(contentsOf: text.utf8)
        return .text(TemplateText(start: start, count: pool.count - start))
    }

    private var atEnd: Bool { at == text.count }
    /// The current character; NUL at the end, as swift-mustache's `current()`.
    private var current: Character { atEnd ? "\0" : text[at] }

    private mutating func parse(_ entry: State) throws(Unsupported) -> [TemplateNode] {
        var nodes: [TemplateNode] = []
        var state = entry
        var whitespaceBefore = ""
        func flushWhitespace() {
            if !whitespaceBefore.isEmpty {
                nodes.append(textNode(whitespaceBefore))
                whitespaceBefore = ""
            }
        }
        while !atEnd {
            if state.newLine {
                let whitespace = read { $0 == " " || $0 == "\t" }
                if state.inParent, !state.inParentTopLevel {
                    if let indent = state.blockIndent {
                        whitespaceBefore = String(whitespace.dropFirst(indent))
                    } else {
                        state.blockIndent = whitespace.count
                    }
                } else {
                    whitespaceBefore = whitespace
                }
            }
            let before = try textUntilTagOrNewline(state)
            if current.isNewline {
                nodes.append(textNode(whitespaceBefore + before + String(current)))
                state.newLine = true
                at += 1
                continue
            }
            if !before.isEmpty {
                nodes.append(textNode(whitespaceBefore + before))
                whitespaceBefore = ""
                state.newLine = false
            }
            if atEnd { break }
            var setNewLine = false
            switch current {
            case "#", "^":
                let inverted = current == "^"
                at += 1
                let name = try readName(state)
                if standalone(state) {
                    setNewLine = true
                } else {
                    flushWhitespace()
                }
                let body = try parse(state.section(name, newLine: setNewLine))
                nodes.append(.section(TemplateName(name), body, inverted: inverted))
            case "/":
                at += 1
                let name = try readName(state)
                guard name == state.sectionName else { throw Unsupported() }
                if standalone(state) {
                    setNewLine = true
                } else {
                    flushWhitespace()
                }
                return nodes
            case "!":
                at += 1
                try skipComment(state)
                setNewLine = standalone(state)
            case "{":
                flushWhitespace()
                at += 1
                let name = try readName(state)
                guard current == "}", !atEnd else { throw Unsupported() }
                at += 1
                nodes.append(.variable(TemplateName(name), escaped: false))
            case "&":
                flushWhitespace()
                at += 1
                nodes.append(.variable(TemplateName(try readName(state)), escaped: false))
            case ">":
                at += 1
                _ = read(while: \.isWhitespace)
                if current == "*" { throw Unsupported() }
                let name = try readPartialName(state)
                if !whitespaceBefore.isEmpty { nodes.append(textNode(whitespaceBefore)) }
                if standalone(state) {
                    setNewLine = true
                    nodes.append(.partial(name, indentation: Array(whitespaceBefore.utf8), overrides: nil))
                } else {
                    nodes.append(.partial(name, indentation: nil, overrides: nil))
                }
                whitespaceBefore = ""
            case "<":
                at += 1
                _ = read(while: \.isWhitespace)
                let name = try readPartialName(state)
                if name.first == "*" { throw Unsupported() }
                if !whitespaceBefore.isEmpty { nodes.append(textNode(whitespaceBefore)) }
                if standalone(state) { setNewLine = true }
                var overrides: [String: [TemplateNode]] = [:]
                for node in try parse(state.parent(name)) {
                    switch node {
                    case .block(let block, let body, indentation: nil, _): overrides[block] = body
                    case .text: break
                    default: throw Unsupported()
                    }
                }
                nodes.append(.partial(name, indentation: Array(whitespaceBefore.utf8), overrides: overrides))
                whitespaceBefore = ""
            case "$":
                at += 1
                let name = try readName(state)
                if state.inParentTopLevel {
                    if standalone(state) { setNewLine = true }
                    // A block a parent's child defines: told from a block with a default by its nil indentation.
                    nodes.append(.block(name, try parse(state.section(name, newLine: setNewLine)), indentation: nil))
                } else {
                    if !whitespaceBefore.isEmpty { nodes.append(textNode(whitespaceBefore)) }
                    if standalone(state) { setNewLine = true }
                    let body = try parse(state.section(name, newLine: setNewLine))
                    let tag = Array(whitespaceBefore.utf8)
                    let intrinsic = setNewLine ? leadingWhitespace(body) : nil
                    nodes.append(.block(name, body, indentation: tag, intrinsic: intrinsic == tag ? nil : intrinsic))
                    whitespaceBefore = ""
                }
            case "=":
                at += 1
                try setDelimiters(&state)
                setNewLine = standalone(state)
            case "%":
                at += 1
                nodes.append(.contentType(try readPragma(state)))
                setNewLine = standalone(state)
            default:
                flushWhitespace()
                nodes.append(.variable(TemplateName(try readName(state)), escaped: true))
            }
            state.newLine = setNewLine
        }
        guard state.sectionName == nil else { throw Unsupported() }
        return nodes
    }

    /// The spaces and tabs that start `nodes`' first line; nil without nodes.
    private func leadingWhitespace(_ nodes: [TemplateNode]) -> [UInt8]? {
        guard let first = nodes.first else { return nil }
        guard case .text(let text) = first else { return [] }
        return Array(
            pool[text.start..<(text.start + text.count)].prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
    }

    /// Text up to a line break (left current) or past a tag's opening delimiter.
    private mutating func textUntilTagOrNewline(_ state: State) throws(Unsupported) -> String {
        var collected = ""
        let first = state.start[0]
        while !atEnd {
            let start = at
            while !atEnd, text[at] != "\n", text[at] != "\r\n", text[at] != first { at += 1 }
            collected += String(text[start..<at])
            if current.isNewline { break }
            if !atEnd, current == first {
                if try read(string: state.start) { break }
                collected.append(first)
                at += 1
            }
        }
        return collected
    }

    /// A tag's name up to the closing delimiter; transforms (`count(posts)`) are swift-mustache's alone.
    private mutating func readName(_ state: State) throws(Unsupported) -> String {
        _ = read(while: \.isWhitespace)
        let name = read(while: Self.nameCharacters.contains)
        _ = read(while: \.isWhitespace)
        guard try read(string: state.end) else { throw Unsupported() }
        if name.contains("(") || name.contains(")") { throw Unsupported() }
        return name
    }

    private mutating func readPartialName(_ state: State) throws(Unsupported) -> String {
        _ = read(while: \.isWhitespace)
        let name = read(while: Self.partialNameCharacters.contains)
        _ = read(while: \.isWhitespace)
        guard try read(string: state.end) else { throw Unsupported() }
        return name
    }

    private mutating func skipComment(_ state: State) throws(Unsupported) {
        let end = state.end
        while at + end.count <= text.count {
            if Array(text[at..<(at + end.count)]) == end {
                at += end.count
                return
            }
            at += 1
        }
        throw Unsupported()
    }

    private mutating func setDelimiters(_ state: inout State) throws(Unsupported) {
        _ = read(while: \.isWhitespace)
        let start = read { !$0.isWhitespace }
        guard !atEnd else { throw Unsupported() }
        _ = read(while: \.isWhitespace)
        let end = read { $0 != "=" && !$0.isWhitespace }
        guard !atEnd else { throw Unsupported() }
        _ = read(while: \.isWhitespace)
        guard current == "=", !atEnd else { throw Unsupported() }
        at += 1
        guard try read(string: state.end), !start.isEmpty, !end.isEmpty else { throw Unsupported() }
        state.start = Array(start)
        state.end = Array(end)
        state.inParentTopLevel = false
    }

    private mutating func readPragma(_ state: State) throws(Unsupported) -> TemplateEscaping {
        _ = read(while: \.isWhitespace)
        let variable = read(while: Self.pragmaCharacters.contains)
        _ = read(while: \.isWhitespace)
        guard current == ":", !atEnd else { throw Unsupported() }
        at += 1
        _ = read(while: \.isWhitespace)
        let value = read(while: Self.pragmaCharacters.contains)
        _ = read(while: \.isWhitespace)
        guard try read(string: state.end), variable == "CONTENT_TYPE", let escaping = TemplateEscaping(pragma: value)
        else {
            throw Unsupported()
        }
        return escaping
    }

    /// Whether the tag just read stands alone on its line: it began one (`state.newLine`) and only spaces and tabs
    /// follow it to the line's end, which is then consumed with it.
    private mutating func standalone(_ state: State) -> Bool {
        guard state.newLine else { return false }
        if atEnd { return true }
        var end = at
        while end < text.count, text[end] == " " || text[end] == "\t" { end += 1 }
        guard end < text.count, text[end].isNewline else { return false }
        at = end + 1
        return true
    }

    /// Whether `string` comes next, consumed if so; running out of text first is an error, as in swift-mustache.
    private mutating func read(string: [Character]) throws(Unsupported) -> Bool {
        guard at + string.count <= text.count else { throw Unsupported() }
        guard text[at..<(at + string.count)].elementsEqual(string) else { return false }
        at += string.count
        return true
    }

    private mutating func read(while accept: (Character) -> Bool) -> String {
        let start = at
        while !atEnd, accept(text[at]) { at += 1 }
        return String(text[start..<at])
    }

    private static let nameCharacters = Set<Character>(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")
    private static let pragmaCharacters = Set<Character>(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")
    private static let partialNameCharacters = Set<Character>(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*/")
}
