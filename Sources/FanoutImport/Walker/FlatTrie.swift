/// A trie frozen for the walker's hot path: its nodes, their keyed children and two integer lists per node in
/// flat buffers of plain values, so that a lookup retains and releases nothing.
///
/// ``PatternTrie`` and ``FieldTrie`` are built from the schema with arrays in each node; looking a key up in them while
/// the walker mutates itself made Swift retain those arrays around every call, a tenth of the read's time
/// (docs/performance.md "The read phase beside JSON parsers"). The walker reads this copy instead: for the patterns,
/// `first` lists a node's capture slots, `second` its terminal relations, `extra` is its capture child and `link` the
/// root of its fields in the fields' trie; for the fields, `first` lists a node's value slots, `second` (on an entity's
/// root node) every slot of the entity, and `extra` is 1 when all of the node's slots name keys.
struct FlatTrie {
    struct Node {
        var firstChild = 0, childCount = 0
        var first = 0..<0, second = 0..<0
        var extra = 0, link = 0
    }

    struct Child {
        var keyStart: Int, keyCount: Int, node: Int
    }

    /// One node as the builder gives it.
    struct Input {
        var children: [(key: [UInt8], node: Int)] = []
        var first: [Int] = [], second: [Int] = []
        var extra = 0, link = 0
    }

    let nodes: UnsafeBufferPointer<Node>
    private let children: UnsafeBufferPointer<Child>
    private let keyBytes: UnsafeBufferPointer<UInt8>
    private let items: UnsafeBufferPointer<Int>
    /// Frees the buffers when the last copy of the trie is gone.
    private let owner: Owner

    init(_ input: [Input]) {
        var nodes: [Node] = [], children: [Child] = [], keyBytes: [UInt8] = [], items: [Int] = []
        for node in input {
            var flat = Node(
                firstChild: children.count, childCount: node.children.count, extra: node.extra, link: node.link)
            for (key, child) in node.children {
                children.append(Child(keyStart: keyBytes.count, keyCount: key.count, node: child))
                keyBytes += key
            }
            flat.first = items.count..<items.count + node.first.count
            items += node.first
            flat.second = items.count..<items.count + node.second.count
            items += node.second
            nodes.append(flat)
        }
        let owner = Owner()
        self.nodes = owner.keep(nodes)
        self.children = owner.keep(children)
        self.keyBytes = owner.keep(keyBytes)
        self.items = owner.keep(items)
        self.owner = owner
    }

    /// The child of `node` under `key`.
    @inline(__always)
    func child(_ node: Int, _ key: UnsafeRawBufferPointer) -> Int? {
        let entry = nodes[node]
        var i = entry.firstChild
        let end = i &+ entry.childCount
        while i < end {
            let child = children[i]
            if child.keyCount == key.count
                && (key.count == 0 || memcmp(keyBytes.baseAddress! + child.keyStart, key.baseAddress!, key.count) == 0)
            {
                return child.node
            }
            i &+= 1
        }
        return nil
    }

    /// The node's first list.
    @inline(__always) func first(_ node: Int) -> UnsafeBufferPointer<Int> {
        UnsafeBufferPointer(rebasing: items[nodes[node].first])
    }

    /// The node's second list.
    @inline(__always) func second(_ node: Int) -> UnsafeBufferPointer<Int> {
        UnsafeBufferPointer(rebasing: items[nodes[node].second])
    }

    private final class Owner: @unchecked Sendable {
        private var buffers: [UnsafeMutableRawPointer] = []

        func keep<T>(_ values: [T]) -> UnsafeBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(values.count, 1))
            _ = buffer.initialize(from: values)
            buffers.append(UnsafeMutableRawPointer(buffer.baseAddress!))
            return UnsafeBufferPointer(rebasing: buffer[..<values.count])
        }

        deinit { for buffer in buffers { buffer.deallocate() } }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
