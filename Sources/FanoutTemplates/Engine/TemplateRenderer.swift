/// One render of compiled templates (``CompiledTemplates``): the context stack and the bytes written so far, each
/// pushed and appended to in place rather than copied per section, as swift-mustache's context and strings are.
///
/// What it renders is what swift-mustache 2.1 renders from the same template and values (`Template+Render.swift`):
/// the same lookups up the stack, the same truthiness (a list opens a section per item, `false` and an empty list
/// none, anything else, even `""` and `0`, once, on top of the stack), the same escaping state per template, the
/// same indentation of partials' lines and the same blocks chosen — except an override of a standalone block whose
/// default content is indented more than its tag, which gets the content's indentation, as the specification says
/// and swift-mustache does not (``TemplateNode/block(_:_:indentation:intrinsic:)``).
struct TemplateRenderer {
    /// What a list of nodes is rendered with: the escaping its pragmas change as it goes, the indentation its lines
    /// get (a standalone partial's or block's, nested ones added up), the blocks a child template overrides.
    struct Frame {
        var escaping: TemplateEscaping
        var indentation: [UInt8]?
        var overrides: [String: [TemplateNode]]?
    }

    private let templates: [String: [TemplateNode]]
    /// The nodes' text: the caller keeps it alive for the render.
    private let text: Unmanaged<TemplateTextPool>
    private var stack: [TemplateValue]
    private(set) var out: [UInt8] = []
    /// Where the bodies rendered for items with a ``TemplateValues/fragmentKey`` are kept; nil to keep none.
    private let fragments: (any TemplateFragments)?
    private let budget: RenderBudget
    /// The lists of nodes rendered so far, against ``RenderBudget/renders``.
    private var renders = 0
    /// Set when the budget ran out: the sections and partials left since, innermost first; every render returns at
    /// once from then on, so the ones still open add themselves as they return.
    private(set) var overrun: [RenderOverrun.Open]?

    init(
        templates: [String: [TemplateNode]], text: TemplateTextPool, value: TemplateValue, capacity: Int,
        fragments: (any TemplateFragments)? = nil, budget: RenderBudget = .standard
    ) {
        self.templates = templates
        self.fragments = fragments
        self.budget = budget
        self.text = .passUnretained(text)
        stack = [value]
        stack.reserveCapacity(8)
        out.reserveCapacity(capacity)
    }

    /// Renders `nodes`. With an indentation, every node whose output starts a line (after a line feed this list
    /// wrote, as swift-mustache tests its own string's last `Character`, so not after `\r\n`) gets it first.
    mutating func render(_ nodes: [TemplateNode], _ frame: Frame) {
        // The frame is passed on as it is, not copied per list (a section renders its list once per item), and
        // only its escaping changes as the list's pragmas go.
        renders += 1
        guard overrun == nil else { return }
        guard renders <= budget.renders, out.count <= budget.bytes else {
            overrun = []
            return
        }
        var escaping = frame.escaping
        guard let indentation = frame.indentation, !indentation.isEmpty else {
            for node in nodes {
                render(node, frame, &escaping)
                if overrun != nil { return }
            }
            return
        }
        let start = out.count
        for node in nodes {
            let at = out.count
            render(node, frame, &escaping)
            if out.count > at, at > start, out[at - 1] == 0x0A, !(at - 1 > start && out[at - 2] == 0x0D) {
                out.insert(contentsOf: indentation, at: at)
            }
            if overrun != nil { return }
        }
    }

    /// Renders `body` with `frame`, its escaping as the pragmas before it in its list left it.
    private mutating func render(_ body: [TemplateNode], _ frame: Frame, escaping: TemplateEscaping) {
        if escaping == frame.escaping { return render(body, frame) }
        render(body, Frame(escaping: escaping, indentation: frame.indentation, overrides: frame.overrides))
    }

    private mutating func render(_ node: TemplateNode, _ frame: Frame, _ escaping: inout TemplateEscaping) {
        switch node {
        case .text(let text):
            out.append(contentsOf: self.text._withUnsafeGuaranteedRef { $0[text] })
        case .variable(let name, let escaped):
            if let value = lookUp(name) { write(value, escaped ? escaping : .text) }
        case .section(let name, let body, inverted: false):
            switch lookUp(name) {
            case nil, .null, .bool(false): break
            case .bool(true):
                render(body, frame, escaping: escaping)
                overrun?.append(.section(name.text))
            case .list(let items):
                // What the body renders over these items follows from their values and its text alone: copied
                // when kept (``TemplateFragments``), else rendered and kept.
                var kept: (fragments: any TemplateFragments, key: UInt64, at: Int)?
                if let fragments, escaping == .html, frame.indentation?.isEmpty ?? true,
                    let key = listKey(items, body)
                {
                    if let bytes = fragments.fragment(key) {
                        out.append(contentsOf: bytes)
                        break
                    }
                    kept = (fragments, key, out.count)
                }
                for item in items {
                    stack.append(item)
                    render(body, frame, escaping: escaping)
                    stack.removeLast()
                    if overrun != nil { break }
                }
                if overrun != nil {
                    overrun?.append(.section(name.text))
                    break
                }
                if let kept {
                    out.withUnsafeBytes {
                        kept.fragments.keep(kept.key, UnsafeRawBufferPointer(rebasing: $0[kept.at...]))
                    }
                }
            case let value?:
                stack.append(value)
                render(body, frame, escaping: escaping)
                stack.removeLast()
                overrun?.append(.section(name.text))
            }
        case .section(let name, let body, inverted: true):
            switch lookUp(name) {
            case nil, .null, .bool(false):
                render(body, frame, escaping: escaping)
                overrun?.append(.section(name.text))
            case .list(let items) where items.isEmpty:
                stack.append(.list(items))
                render(body, frame, escaping: escaping)
                stack.removeLast()
                overrun?.append(.section(name.text))
            default: break
            }
        case .partial(let name, let indentation, let overrides):
            guard let nodes = templates[name] else { return }
            var inner = Frame(
                escaping: .html, indentation: Self.indent(frame.indentation, indentation), overrides: frame.overrides)
            if let overrides {
                // The outermost child's blocks win: a parent's own parent cannot override what its child chose.
                inner.overrides = (frame.overrides ?? [:]).merging(overrides) { outer, _ in outer }
            }
            render(nodes, inner)
            overrun?.append(.partial(name))
        case .block(let name, let body, let indentation, let intrinsic):
            var inner = Frame(
                escaping: escaping, indentation: Self.indent(frame.indentation, indentation),
                overrides: frame.overrides)
            guard let override = frame.overrides?[name] else { return render(body, inner) }
            guard let intrinsic else { return render(override, inner) }
            // The text before the tag indented the first line as the tag is; it gets the rest of the content's.
            let tag = indentation ?? []
            let extra = intrinsic.starts(with: tag) ? Array(intrinsic.dropFirst(tag.count)) : intrinsic
            inner.indentation = Self.indent(frame.indentation, intrinsic)
            let at = out.count
            render(override, inner)
            if out.count > at { out.insert(contentsOf: extra, at: at) }
        case .contentType(let changed):
            escaping = changed
        }
    }

    /// The key of `body` rendered over `items` (``TemplateFragmentKey/list(body:items:)``), when it may be kept: the
    /// items are values of one type that answers every name for each value, each with a key, answering every name
    /// `body` looks up.
    private func listKey(_ items: [TemplateValue], _ body: [TemplateNode]) -> UInt64? {
        guard case .object(let first)? = items.first, type(of: first).answersEveryName,
            Self.answers(first, everyNameIn: body)
        else { return nil }
        let itemType = ObjectIdentifier(type(of: first))
        var keys: [UInt64] = []
        keys.reserveCapacity(items.count)
        for item in items {
            guard case .object(let values) = item, ObjectIdentifier(type(of: values)) == itemType,
                let key = values.fragmentKey
            else { return nil }
            keys.append(key)
        }
        let bodyHash = text._withUnsafeGuaranteedRef { TemplateFragmentKey.hash(body, pool: $0) }
        return TemplateFragmentKey.list(body: bodyHash, items: keys)
    }

    /// Whether `values` answer every name `nodes` look up, at any depth, and `nodes` include no partial or block:
    /// then nothing below `values` on the stack reaches what they render.
    private static func answers(_ values: any TemplateValues, everyNameIn nodes: [TemplateNode]) -> Bool {
        for node in nodes {
            switch node {
            case .text, .contentType: continue
            case .variable(let name, _):
                if let head = name.head, values.value(named: head) == nil { return false }
            case .section(let name, let body, _):
                if let head = name.head, values.value(named: head) == nil { return false }
                if !answers(values, everyNameIn: body) { return false }
            case .partial, .block: return false
            }
        }
        return true
    }

    private static func indent(_ outer: [UInt8]?, _ own: [UInt8]?) -> [UInt8]? {
        guard let own else { return outer }
        return (outer ?? []) + own
    }

    /// The value `name` names: its first part on the highest level of the stack that has it, the rest inside that.
    @inline(__always)
    private func lookUp(_ name: TemplateName) -> TemplateValue? {
        var value: TemplateValue
        if name.start == .top || name.head == nil {
            value = stack[stack.count - 1]
            if let head = name.head {
                guard let child = value.child(head) else { return nil }
                value = child
            }
        } else {
            let first = name.head!
            var level = stack.count - 1
            while true {
                if let found = stack[level].child(first) {
                    value = found
                    break
                }
                if level == 0 { return nil }
                level -= 1
            }
        }
        for part in name.tail {
            guard let child = value.child(part) else { return nil }
            value = child
        }
        if case .null = value { return nil }
        return value
    }

    /// `value` as text, escaped with `escaping`.
    private mutating func write(_ value: TemplateValue, _ escaping: TemplateEscaping) {
        switch value {
        case .string(let text): write(text, escaping)
        case .bytes(let bytes):
            switch escaping {
            case .html: HTMLText.append(escaping: bytes, to: &out)
            case .markdown: write(String(decoding: bytes, as: UTF8.self), escaping)
            case .text: out.append(contentsOf: bytes)
            }
        case .int(let number): write(String(number), escaping)
        case .bool(let flag): write(flag ? "true" : "false", escaping)
        case .double(let number): write(String(describing: number), escaping)
        case .null: break
        case .object(let values): write(values.renderText, escaping)
        case .list, .dictionary: write(String(describing: value.any), escaping)
        case .other(let value):
            // swift-mustache unwraps a present optional to describe it; an absent one describes itself, `nil`.
            write(String(describing: value), escaping)
        }
    }

    private mutating func write(_ text: String, _ escaping: TemplateEscaping) {
        switch escaping {
        case .html: HTMLText.append(escaping: text, to: &out)
        case .markdown: out.append(contentsOf: MarkdownText.escape(text).utf8)
        case .text: out.append(contentsOf: text.utf8)
        }
    }
}
