/// The bound on how deeply templates nest: a template set whose partials include each other in a cycle, or whose
/// sections, blocks and partials nest deeper than ``maximumDepth``, is refused when it loads, before either engine
/// parses or renders it, since both recurse once per level and would run out of stack (docs/site.md "Template nesting").
///
/// Read from the tags alone (``TemplateTags``), so the bound holds for swift-mustache's parser and renderer as
/// well as Fanout's engine; the part of a template after a set-delimiter tag (`{{=<% %>=}}`) is not read.
enum TemplateNesting {
    /// The deepest nesting allowed, counting every section, block, parent and partial open at once across the
    /// templates a page includes: far beyond what a site's templates use, and far within a render thread's stack.
    static let maximumDepth = 100

    /// Where a template includes another: the tag's line and how many levels are open inside the template there.
    private struct Include {
        let name: String
        let line: Int
        let depth: Int
    }

    /// Refuses `texts` (template name → text) when a partial cycle or a nesting deeper than ``maximumDepth``
    /// exists; `shown` names each template's file (keyed by the file name, with `.mustache`).
    static func check(_ texts: [String: String], shown: [String: String]) throws(RenderError) {
        var includes: [String: [Include]] = [:], ownDepth: [String: Int] = [:]
        for (name, text) in texts.sorted(by: { $0.key < $1.key }) {
            var open = 0, deepest = 0, found: [Include] = []
            for tag in TemplateTags(text).tags {
                switch tag.kind {
                case .section, .block, .parent:
                    open += 1
                    guard open <= maximumDepth else {
                        throw tooDeep(file(name, shown), line: tag.line, path: [name])
                    }
                    deepest = max(deepest, open)
                    if tag.kind == .parent { found.append(Include(name: tag.name, line: tag.line, depth: open)) }
                case .partial:
                    found.append(Include(name: tag.name, line: tag.line, depth: open + 1))
                    deepest = max(deepest, open + 1)
                case .close: open = max(0, open - 1)
                case .variable, .other: break
                }
            }
            includes[name] = found.filter { texts[$0.name] != nil }
            ownDepth[name] = deepest
        }
        // The deepest nesting a render of each template reaches, through what it includes; a template on the path
        // being walked met again is a cycle.
        var reached: [String: Int] = [:], path: [String] = []
        func walk(_ name: String) throws(RenderError) -> Int {
            if let known = reached[name] { return known }
            path.append(name)
            defer { path.removeLast() }
            var deepest = ownDepth[name] ?? 0
            for include in includes[name] ?? [] {
                if let start = path.firstIndex(of: include.name) {
                    let cycle = path[start...] + [include.name]
                    let message =
                        cycle.count == 2
                        ? "template \"\(name)\" includes itself (\(cycle.joined(separator: " → ")))"
                        : "templates include each other without end: \(cycle.joined(separator: " → "))"
                    throw RenderError.templateLine(file: file(name, shown), line: include.line, message: message)
                }
                let inner = try walk(include.name), depth = include.depth + inner
                guard depth <= maximumDepth else {
                    throw tooDeep(file(name, shown), line: include.line, path: [name, include.name])
                }
                deepest = max(deepest, depth)
            }
            reached[name] = deepest
            return deepest
        }
        for name in texts.keys.sorted() { _ = try walk(name) }
    }

    private static func file(_ name: String, _ shown: [String: String]) -> String {
        shown[name + ".mustache"] ?? name + ".mustache"
    }

    private static func tooDeep(_ file: String, line: Int, path: [String]) -> RenderError {
        let through = path.count > 1 ? " (through \(path.joined(separator: " → ")))" : ""
        return RenderError.templateLine(
            file: file, line: line,
            message: "sections, blocks and partials nest more than \(maximumDepth) deep\(through)")
    }
}
