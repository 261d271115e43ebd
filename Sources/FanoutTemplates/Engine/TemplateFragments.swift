/// Where Fanout's engine keeps the text of a section rendered over a list (its body once per item), by a key made
/// from the section's body and its items' ``TemplateValues/fragmentKey``s (``TemplateFragmentKey/list(body:items:)``),
/// so that a page renders a list it has rendered before (in this build or, kept, in the previous one) by copying its
/// bytes: the users on a page of the index, which every index page's rebuild shows again (docs/performance.md
/// "Rebuilds").
///
/// The engine uses it only for a list of values of one type that answers every name it answers for each of its
/// values (``TemplateValues/answersEveryName``), all with a key, whose section's body (at any depth) looks up no
/// name they do not answer and includes no partial or block, escaped as HTML and not indented: what the body renders
/// then follows from the items' values and the body's text alone, which the key hashes.
package protocol TemplateFragments: AnyObject {
    /// The bytes kept for `key`, if any; valid for as long as the fragments live.
    func fragment(_ key: UInt64) -> UnsafeRawBufferPointer?
    /// Keeps `bytes` (copied) as the text of `key`.
    func keep(_ key: UInt64, _ bytes: UnsafeRawBufferPointer)
}

/// The keys of kept lists (``TemplateFragments``).
package enum TemplateFragmentKey {
    /// The key of a section whose body hashes to `body` (``hash(_:pool:)``) rendered over items whose
    /// ``TemplateValues/fragmentKey``s are `items`, escaped as HTML and not indented.
    package static func list(body: UInt64, items: some Collection<UInt64>) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine("fragment list")
        hasher.combine(body)
        hasher.combine(items.count)
        for item in items { hasher.combine(item) }
        return hasher.finalize()
    }

    /// A hash of `nodes` as they render: their kinds, text, names and structure.
    static func hash(_ nodes: [TemplateNode], pool: TemplateTextPool) -> UInt64 {
        var hasher = StableHasher()
        feed(nodes, pool: pool, into: &hasher)
        return hasher.finalize()
    }

    private static func feed(_ nodes: [TemplateNode], pool: TemplateTextPool, into hasher: inout StableHasher) {
        hasher.combine(nodes.count)
        for node in nodes {
            switch node {
            case .text(let text):
                hasher.combine(1)
                hasher.combine(StableHasher.hash(pool[text]))
            case .variable(let name, let escaped):
                hasher.combine(2)
                hasher.combine(escaped)
                feed(name, into: &hasher)
            case .section(let name, let body, let inverted):
                hasher.combine(3)
                hasher.combine(inverted)
                feed(name, into: &hasher)
                feed(body, pool: pool, into: &hasher)
            case .partial(let name, _, _), .block(let name, _, _, _):
                // Never in a kept list's body; named for completeness.
                hasher.combine(4)
                hasher.combine(name)
            case .contentType(let escaping):
                hasher.combine(5)
                hasher.combine(escaping == .html ? 1 : escaping == .markdown ? 2 : 3)
            }
        }
    }

    private static func feed(_ name: TemplateName, into hasher: inout StableHasher) {
        hasher.combine(name.start == .top)
        hasher.combine(optional: name.head)
        hasher.combine(name.tail.count)
        for part in name.tail { hasher.combine(part) }
    }
}
