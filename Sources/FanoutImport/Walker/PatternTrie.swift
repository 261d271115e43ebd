import FanoutCore

/// Every relation pattern of a schema merged into one tree, so one pass over the export serves them all.
struct PatternTrie {
    struct Node {
        var literals: [(key: [UInt8], child: Int)] = []
        var captureChild = -1
        var captureSlots: [CaptureSlot] = []
        var terminals: [RelationKind] = []
    }

    private(set) var nodes = [Node()]

    /// The literal keys directly under the root, for layout error messages.
    var rootLiterals: [String] { nodes[0].literals.map { String(decoding: $0.key, as: UTF8.self) } }

    /// Adds `pattern` as where `relation` lives; `required` are the captures the relation needs.
    mutating func insert(_ pattern: PathPattern, _ relation: RelationKind, required: [CaptureSlot], optional: [CaptureSlot] = []) throws(InputError) {
        var node = 0
        var bound: Set<CaptureSlot> = []
        for segment in pattern.segments {
            switch segment {
            case .literal(let text):
                let key = Array(text.utf8)
                if let existing = nodes[node].literals.first(where: { $0.key == key }) {
                    node = existing.child
                } else {
                    nodes.append(Node())
                    nodes[node].literals.append((key, nodes.count - 1))
                    node = nodes.count - 1
                }
            case .capture(let name):
                guard let slot = CaptureSlot(name: name), required.contains(slot) || optional.contains(slot) else {
                    let allowed = (required + optional).map { "{\(String(describing: $0))}" }.joined(separator: ", ")
                    throw InputError.schema("pattern \(pattern) uses {\(name)}; this relation takes \(allowed)")
                }
                bound.insert(slot)
                if nodes[node].captureChild < 0 {
                    nodes.append(Node())
                    nodes[node].captureChild = nodes.count - 1
                }
                if !nodes[node].captureSlots.contains(slot) { nodes[node].captureSlots.append(slot) }
                node = nodes[node].captureChild
            }
        }
        for slot in required where !bound.contains(slot) {
            throw InputError.schema("pattern \(pattern) must capture {\(String(describing: slot))}")
        }
        nodes[node].terminals.append(relation)
    }

    /// The child reached through the literal `key`, if any.
    func literal(_ node: Int, _ key: UnsafeRawBufferPointer) -> Int? {
        for literal in nodes[node].literals where literal.key.count == key.count {
            if literal.key.withUnsafeBytes({ $0.elementsEqual(key) }) { return literal.child }
        }
        return nil
    }
}
