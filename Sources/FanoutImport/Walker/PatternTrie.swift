import FanoutCore

/// Every relation pattern of a schema merged into one tree, so one pass over the export serves them all.
/// Relations are numbered as the walker numbers them (``RelationKind/rawValue``, then the declared row sets).
struct PatternTrie {
    struct Node {
        var literals: [(key: [UInt8], child: Int)] = []
        var captureChild = -1
        var captureSlots: [CaptureSlot] = []
        var terminals: [Int] = []
    }

    private(set) var nodes = [Node()]

    /// The literal keys directly under the root, for layout error messages.
    var rootLiterals: [String] { nodes[0].literals.map { String(decoding: $0.key, as: UTF8.self) } }

    /// The slots of `pattern`'s captures, which must be among `required` and `optional` and include every one
    /// of `required`.
    static func slots(of pattern: PathPattern, required: [CaptureSlot], optional: [CaptureSlot] = []) throws(InputError)
        -> [CaptureSlot]
    {
        var slots: [CaptureSlot] = []
        for name in pattern.captureNames {
            guard let slot = CaptureSlot(name: name), required.contains(slot) || optional.contains(slot) else {
                let allowed = (required + optional).map { "{\(String(describing: $0))}" }.joined(separator: ", ")
                throw InputError.schema("pattern \(pattern) uses {\(name)}; this relation takes \(allowed)")
            }
            slots.append(slot)
        }
        for slot in required where !slots.contains(slot) {
            throw InputError.schema("pattern \(pattern) must capture {\(String(describing: slot))}")
        }
        return slots
    }

    /// Adds `pattern` as where relation `relation` lives, its captures kept in `slots` (one per capture, in order).
    mutating func insert(_ pattern: PathPattern, relation: Int, slots: [CaptureSlot]) {
        var node = 0
        var next = slots.makeIterator()
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
            case .capture:
                let slot = next.next()!
                if nodes[node].captureChild < 0 {
                    nodes.append(Node())
                    nodes[node].captureChild = nodes.count - 1
                }
                if !nodes[node].captureSlots.contains(slot) { nodes[node].captureSlots.append(slot) }
                node = nodes[node].captureChild
            }
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
