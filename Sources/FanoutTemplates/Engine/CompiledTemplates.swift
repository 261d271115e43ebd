/// A template set's templates parsed once into ``TemplateNode``s, for Fanout's own engine (``TemplateRenderer``):
/// the templates it renders, and which of them it renders (docs/performance.md "Templates").
///
/// A template is rendered here when it and every template it includes, directly or not, parse
/// (``TemplateParser``): a project's template using swift-mustache's transforms (`{{count(posts)}}`) or a dynamic
/// partial (`{{>*name}}`) is rendered by swift-mustache, with the templates it includes, as before.
struct CompiledTemplates: Sendable {
    private let nodes: [String: [TemplateNode]]
    /// Their text.
    private let pool: TemplateTextPool
    /// The templates rendered here: parsed, and including only templates that are.
    private let renderable: Set<String>

    /// Compiles `texts` (template name → text); those that do not parse are left to swift-mustache.
    init(_ texts: [String: String]) {
        var nodes: [String: [TemplateNode]] = [:]
        var pool: [UInt8] = []
        for (name, text) in texts.sorted(by: { $0.key < $1.key }) {
            nodes[name] = try? TemplateParser.parse(text, pool: &pool)
        }
        self.pool = TemplateTextPool(pool)
        var included: [String: Set<String>] = [:]
        for (name, list) in nodes { included[name] = Self.partials(in: list) }
        // A template is renderable when every template it reaches exists only as a parsed one (a partial that does
        // not exist renders as nothing in both engines).
        var renderable = Set<String>()
        for name in nodes.keys {
            var reached: Set<String> = [name], pending = [name], ok = true
            while ok, let next = pending.popLast() {
                for partial in included[next] ?? [] where reached.insert(partial).inserted {
                    if texts[partial] != nil, nodes[partial] == nil { ok = false }
                    pending.append(partial)
                }
            }
            if ok { renderable.insert(name) }
        }
        self.nodes = nodes
        self.renderable = renderable
    }

    /// Whether `name` is rendered here rather than by swift-mustache.
    func renders(_ name: String) -> Bool { renderable.contains(name) }

    /// `value` rendered with the template `name`, nil when it is not one rendered here.
    func render(
        _ value: TemplateValue, template name: String, budget: RenderBudget = .standard
    ) throws(RenderOverrun) -> String? {
        try bytes(value, template: name, capacity: 2048, budget: budget).map { String(decoding: $0, as: UTF8.self) }
    }

    /// ``render(_:template:)``'s UTF-8 bytes, for a page written to a file as they are: making a `String` of them
    /// would check every byte again. `capacity`: the bytes to reserve, about what the template renders.
    /// `fragments`: where list items' bodies are kept and copied from (``TemplateFragments``).
    /// `budget`: how much the render may do (``RenderBudget``), past which it throws.
    func bytes(
        _ value: TemplateValue, template name: String, capacity: Int, fragments: (any TemplateFragments)? = nil,
        budget: RenderBudget = .standard
    ) throws(RenderOverrun) -> [UInt8]? {
        guard renderable.contains(name), let list = nodes[name] else { return nil }
        var renderer = TemplateRenderer(
            templates: nodes, text: pool, value: value, capacity: capacity, fragments: fragments, budget: budget)
        renderer.render(list, TemplateRenderer.Frame(escaping: .html))
        if let open = renderer.overrun {
            throw RenderOverrun(template: name, open: open.reversed(), budget: budget)
        }
        return renderer.out
    }

    /// The hashes (``TemplateFragmentKey/hash(_:pool:)``) of the bodies of the sections named `list` (not inverted) that
    /// rendering `template` may reach, through its partials and parents: what the keys of a kept list of that name
    /// are made with (``TemplateFragments``). Empty when `template` is not rendered here.
    func listBodyHashes(named list: String, in template: String) -> [UInt64] {
        guard renderable.contains(template) else { return [] }
        var hashes: [UInt64] = [], visited: Set<String> = [template]
        func walk(_ nodes: [TemplateNode]) {
            for node in nodes {
                switch node {
                case .section(let name, let body, let inverted):
                    if !inverted, name.head == list, name.tail.isEmpty, name.start == .stack {
                        hashes.append(TemplateFragmentKey.hash(body, pool: pool))
                    }
                    walk(body)
                case .partial(let name, _, let overrides):
                    for body in overrides?.values ?? [:].values { walk(body) }
                    if visited.insert(name).inserted, let included = self.nodes[name] { walk(included) }
                case .block(_, let body, _, _):
                    walk(body)
                case .text, .variable, .contentType:
                    break
                }
            }
        }
        walk(nodes[template] ?? [])
        return Array(Set(hashes)).sorted()
    }

    /// The templates `nodes` include, as partials or parents, at any depth of sections and blocks.
    private static func partials(in nodes: [TemplateNode]) -> Set<String> {
        var names = Set<String>()
        for node in nodes {
            switch node {
            case .partial(let name, _, let overrides):
                names.insert(name)
                for body in overrides?.values ?? [:].values { names.formUnion(partials(in: body)) }
            case .section(_, let body, _), .block(_, let body, _, _):
                names.formUnion(partials(in: body))
            case .text, .variable, .contentType:
                break
            }
        }
        return names
    }
}
