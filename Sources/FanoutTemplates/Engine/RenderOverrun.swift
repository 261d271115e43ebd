/// A render stopped by its ``RenderBudget``, with the sections and partials open when it ran out, outermost first.
struct RenderOverrun: Error {
    enum Open: Equatable {
        /// A section over the name, in the template the partial before it (or the rendered one) holds.
        case section(String)
        /// A partial or parent of that name.
        case partial(String)
    }

    /// The template the render started from.
    var template: String
    var open: [Open]
    var budget: RenderBudget

    /// The error a user sees: where the outermost open section is (file and line), and the nesting that ran out,
    /// each tag with its line. `texts`: template name → text; `shown`: each template's file as messages name it,
    /// keyed by its file name.
    func error(texts: [String: String], shown: [String: String]) -> RenderError {
        var described: [String] = []
        var first: (file: String, line: Int)?
        var template = template, sections: [String] = []
        func describeSegment(endingIn partial: String?) {
            let file = shown["\(template).mustache"] ?? "\(template).mustache"
            let lines = Self.lines(of: sections, then: partial, in: texts[template] ?? "")
            for (index, name) in sections.enumerated() {
                let line = lines[index]
                if first == nil, let line { first = (file, line) }
                described.append("{{#\(name)}}" + (line.map { " (line \($0))" } ?? ""))
            }
            if let partial {
                let line = lines[sections.count]
                if first == nil, let line { first = (file, line) }
                described.append("{{>\(partial)}}" + (line.map { " (line \($0))" } ?? ""))
            }
        }
        for step in open {
            switch step {
            case .section(let name): sections.append(name)
            case .partial(let name):
                describeSegment(endingIn: name)
                template = name
                sections = []
            }
        }
        describeSegment(endingIn: nil)
        let place = first ?? (shown["\(self.template).mustache"] ?? "\(self.template).mustache", 1)
        return .renderBudget(
            file: place.file, line: place.line, page: nil, nesting: described.joined(separator: " › "),
            renders: budget.renders, bytes: budget.bytes)
    }

    /// The lines of the tags opening `sections`, nested in that order, and of the partial `then` inside the last, in
    /// `text`: their first occurrence so nested (nil for one not found, as an override's sections, which its parent
    /// renders).
    private static func lines(of sections: [String], then partial: String?, in text: String) -> [Int?] {
        var found = [Int?](repeating: nil, count: sections.count + 1)
        // The open sections' names; nil for a block or a parent, which the render does not count as sections.
        var open: [String?] = []
        func openNames() -> [String] { open.compactMap { $0 } }
        for tag in TemplateTags(text).tags {
            switch tag.kind {
            case .section:
                open.append(tag.name)
                let names = openNames()
                if names.count <= sections.count, names == Array(sections.prefix(names.count)),
                    found[names.count - 1] == nil
                {
                    found[names.count - 1] = tag.line
                    if names.count == sections.count, partial == nil { return found }
                }
            case .block, .parent:
                if tag.kind == .parent, tag.name == partial, openNames() == sections {
                    found[sections.count] = tag.line
                    return found
                }
                open.append(nil)
            case .partial:
                if tag.name == partial, openNames() == sections {
                    found[sections.count] = tag.line
                    return found
                }
            case .close:
                guard !open.isEmpty else { continue }
                open.removeLast()
                // A prefix that closes before the nesting is complete was not the one the render was in.
                let depth = openNames().count
                if depth < sections.count { for index in depth..<sections.count { found[index] = nil } }
            case .variable, .other:
                continue
            }
        }
        return found
    }
}
