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

    /// Where a template includes another: the tag's line and how many levels are open inside the template there;
    /// `via`, for a template a block's override includes, names that override (``check(_:shown:)``).
    private struct Include {
        let name: String
        let line: Int
        let depth: Int
        var via: String? = nil
    }

    /// Refuses `texts` (template name → text) when a partial cycle or a nesting deeper than ``maximumDepth``
    /// exists; `shown` names each template's file (keyed by the file name, with `.mustache`).
    static func check(_ texts: [String: String], shown: [String: String]) throws(RenderError) {
        var includes: [String: [Include]] = [:], ownDepth: [String: Int] = [:]
        // A block's override renders wherever a block of its name is rendered below the parent it fills, however deep
        // (the outermost override wins): in the parent, and in any template the parent's content includes, which
        // may be the template holding the override. So what an override includes counts as included by every
        // template with a block of that name (`slots`), at that block's depth.
        var overrides: [String: [Include]] = [:], slots: [String: [(template: String, line: Int, depth: Int)]] = [:]
        for (name, text) in texts.sorted(by: { $0.key < $1.key }) {
            var open = 0, deepest = 0, found: [Include] = []
            // The blocks open at this tag, each with its depth.
            var blocks: [(name: String, depth: Int, open: Int)] = []
            func include(_ tag: TemplateTags.Tag, depth: Int) {
                found.append(Include(name: tag.name, line: tag.line, depth: depth))
                for block in blocks {
                    overrides[block.name, default: []].append(
                        Include(
                            name: tag.name, line: tag.line, depth: depth - block.depth,
                            via: "{{$\(block.name)}} of \(name)"))
                }
            }
            for tag in TemplateTags(text).tags {
                switch tag.kind {
                case .section, .block, .parent:
                    open += 1
                    guard open <= maximumDepth else {
                        throw tooDeep(file(name, shown), line: tag.line, path: [name])
                    }
                    deepest = max(deepest, open)
                    if tag.kind == .parent { include(tag, depth: open) }
                    if tag.kind == .block {
                        blocks.append((tag.name, open, open))
                        slots[tag.name, default: []].append((name, tag.line, open))
                    }
                case .partial:
                    include(tag, depth: open + 1)
                    deepest = max(deepest, open + 1)
                case .close:
                    if blocks.last?.open == open { blocks.removeLast() }
                    open = max(0, open - 1)
                case .variable, .other: break
                }
            }
            includes[name] = found
            ownDepth[name] = deepest
        }
        for (block, slotsOfBlock) in slots {
            for slot in slotsOfBlock {
                includes[slot.template, default: []] += (overrides[block] ?? []).map {
                    Include(name: $0.name, line: slot.line, depth: slot.depth + $0.depth, via: $0.via)
                }
            }
        }
        includes = includes.mapValues { $0.filter { texts[$0.name] != nil } }
        // The deepest nesting a render of each template reaches, through what it includes; a template on the path
        // being walked met again is a cycle.
        // `shownPath`: the same names, each reached through an override saying so.
        var reached: [String: Int] = [:], path: [String] = [], shownPath: [String] = []
        // `lines[i]`: the line of `path[i]` that includes `path[i + 1]`.
        var lines: [Int] = []
        let builtIn = { (name: String) in shown[name + ".mustache"]?.hasSuffix("(built in)") ?? false }
        func walk(_ name: String, shownAs: String) throws(RenderError) -> Int {
            if let known = reached[name] { return known }
            path.append(name)
            shownPath.append(shownAs)
            defer {
                path.removeLast()
                shownPath.removeLast()
            }
            var deepest = ownDepth[name] ?? 0
            for include in includes[name] ?? [] {
                let shownAs = include.via.map { "\(include.name) (in \($0))" } ?? include.name
                if let start = path.firstIndex(of: include.name) {
                    let cycle = shownPath[start...] + [shownAs]
                    let message =
                        cycle.count == 2 && include.via == nil
                        ? "template \"\(name)\" includes itself (\(cycle.joined(separator: " → ")))"
                        : "templates include each other without end: \(cycle.joined(separator: " → "))"
                    // Named in the last of the user's templates on the cycle (where it closes, if that one is), at its line
                    // leading on.
                    let at = (start..<path.count).last { !builtIn(path[$0]) } ?? path.count - 1
                    let line = at < path.count - 1 ? lines[at] : include.line
                    throw RenderError.templateLine(file: file(path[at], shown), line: line, message: message)
                }
                lines.append(include.line)
                defer { lines.removeLast() }
                let inner = try walk(include.name, shownAs: shownAs), depth = include.depth + inner
                guard depth <= maximumDepth else {
                    throw tooDeep(file(name, shown), line: include.line, path: [name, include.name])
                }
                deepest = max(deepest, depth)
            }
            reached[name] = deepest
            return deepest
        }
        // The user's templates first, so that a cycle is reported in a file the user wrote.
        for name in texts.keys.sorted(by: { (builtIn($0) ? 1 : 0, $0) < (builtIn($1) ? 1 : 0, $1) }) {
            _ = try walk(name, shownAs: name)
        }
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
