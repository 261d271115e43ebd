import FanoutCore

/// The fields an entity's node may hold, as a tree of keys, each leaf naming the value slots it fills.
struct FieldTrie {
    struct Node {
        var children: [(key: [UInt8], child: Int)] = []
        /// Usually one; several when two roles read the same field (a display name used as the username too).
        var slots: [Int] = []
    }

    private(set) var nodes = [Node()]
    /// Every slot of the trie, so the walker can clear them per entity without collecting them again.
    private(set) var allSlots: [Int] = []

    /// Adds `path` for slot `slot`.
    mutating func insert(_ path: FieldPath, slot: Int) {
        var node = 0
        for key in path.keys {
            let bytes = Array(key.utf8)
            if let existing = nodes[node].children.first(where: { $0.key == bytes }) {
                node = existing.child
            } else {
                nodes.append(Node())
                nodes[node].children.append((bytes, nodes.count - 1))
                node = nodes.count - 1
            }
        }
        nodes[node].slots.append(slot)
        allSlots.append(slot)
    }

}
