import FanoutJSON

/// Finds where database paths are in a Firebase JSON export: the line and column of each path's last key.
///
/// This is the second, separate pass over the export (docs/reports.md): the walker that fills the core keeps no
/// byte offsets, so that reading stays as fast as it is, and only the paths that have findings are looked for
/// here, after the audit. The pass descends only into the members on the way to those paths and skips every
/// other value with the reader's `skipValueUnchecked` (the first pass has validated the document, so matching
/// brackets is enough); it stops as soon as every path is settled, found or known to be missing. Arrays are read as the objects they stand for, through ``FirebaseMembers``, as the walker reads them.
///
/// A path that is not in the export (a missing timeline entry, a missing mirror) is placed at its nearest
/// ancestor that is: a missing `timeline/u1/-Kx` points at the key `u1` under `timeline`; a path whose first key
/// is missing points at the start of the document.
package struct PathLocator {
    /// A key of a path: its children by key, and where its key was found.
    private struct Node {
        var children: [String: Int] = [:]
        /// The offset of the key's opening quote (an array element's first byte); nil until found.
        var offset: Int?
        /// Whether some path ends here.
        var isTarget = false
        /// The paths ending here or below.
        var targetsBelowAndHere = 0
    }

    private var nodes = [Node()]
    /// Targets neither found nor known to be missing.
    private var unsettled = 0

    /// Where each of `paths` is in the JSON document `buffer` (already validated by the first pass): the
    /// 1-based line and column of its last key, or of its nearest ancestor's key when it is missing.
    /// Paths are `/`-separated keys, as findings name them.
    package static func locate(_ paths: [String], in buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> [String:
        TextPosition]
    {
        try placed(paths, in: buffer).mapValues(\.position)
    }

    /// Where each of `paths` is, as ``locate(_:in:)`` finds it, and how many of its keys the document has (all of
    /// them when the path is there): what tells which of several files holds a path.
    package static func placed(_ paths: [String], in buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> [String:
        (position: TextPosition, depth: Int)]
    {
        var locator = PathLocator()
        for path in Set(paths) { locator.insert(path) }
        var reader = JSONReader(buffer)
        let start = TextPosition.skipping(whitespaceIn: buffer, from: reader.offset)
        locator.nodes[0].offset = start
        if locator.unsettled > 0, start < buffer.count {
            _ = try locator.walk(0, &reader, buffer)
        }
        // Each path's deepest key that was found, then all offsets turned into lines and columns in one sweep.
        var deepest: [String: (offset: Int, depth: Int)] = [:]
        for path in Set(paths) { deepest[path] = locator.deepest(path) }
        let positions = TextPosition.positions(of: Array(Set(deepest.values.map(\.offset))), in: buffer)
        return deepest.mapValues { (positions[$0.offset]!, $0.depth) }
    }

    private mutating func insert(_ path: String) {
        var node = 0
        var chain = [0]
        for key in path.split(separator: "/" as Character, omittingEmptySubsequences: false) {
            if let child = nodes[node].children[String(key)] {
                node = child
            } else {
                nodes.append(Node())
                nodes[node].children[String(key)] = nodes.count - 1
                node = nodes.count - 1
            }
            chain.append(node)
        }
        guard !nodes[node].isTarget else { return }
        nodes[node].isTarget = true
        for n in chain { nodes[n].targetsBelowAndHere += 1 }
        unsettled += 1
    }

    /// The offset of the deepest key of `path` that was found, and how many keys deep it is.
    private func deepest(_ path: String) -> (offset: Int, depth: Int) {
        var node = 0
        var offset = nodes[0].offset ?? 0
        var depth = 0
        for key in path.split(separator: "/" as Character, omittingEmptySubsequences: false) {
            guard let child = nodes[node].children[String(key)], let found = nodes[child].offset else { break }
            node = child
            offset = found
            depth += 1
        }
        return (offset, depth)
    }

    /// Reads the value at `reader`, which belongs to `node`, finding the keys of `node`'s children in it. On
    /// return every target below `node` is settled. Returns true once no target is left unsettled, to stop.
    private mutating func walk(
        _ node: Int, _ reader: inout JSONReader, _ buffer: UnsafeRawBufferPointer
    ) throws(JSONSyntaxError) -> Bool {
        var visited = Set<Int>()
        let isArray = try reader.peekKind() == .array
        if var members = try FirebaseMembers(&reader) {
            while true {
                let before = reader.offset
                guard let keyBytes = try members.next(&reader) else { break }
                let chain = children(of: node, String(decoding: keyBytes, as: UTF8.self), visited: &visited)
                guard let child = chain.last else {
                    try reader.skipValueUnchecked()
                    continue
                }
                // An object member is found at its key's opening quote, after the separator; an array element
                // (its index is the key) at its first byte.
                let offset = TextPosition.skipping(
                    whitespaceIn: buffer, from: isArray ? reader.offset : before, commas: !isArray)
                for n in chain {
                    nodes[n].offset = offset
                    if nodes[n].isTarget { unsettled -= 1 }
                }
                if nodes[child].children.isEmpty {
                    try reader.skipValueUnchecked()
                } else if try walk(child, &reader, buffer) {
                    return true
                }
                if unsettled == 0 { return true }
            }
        } else {
            try reader.skipValueUnchecked()
        }
        // Children whose keys never came are missing, and so is everything below them.
        for child in nodes[node].children.values where !visited.contains(child) {
            unsettled -= nodes[child].targetsBelowAndHere
        }
        return unsettled == 0
    }

    /// The child of `node` for `key`, the first time it comes (a repeated key is skipped), marked visited; empty
    /// when `key` is on no path.
    ///
    /// A key holding `/` (which Firebase forbids, but hand-made exports have, and `key-invalid` reports) is
    /// several keys of a path at once: the chain of nodes it stands for, which all take its position. The other
    /// paths below the first of them are then never settled, which costs only the early stop.
    private func children(of node: Int, _ key: String, visited: inout Set<Int>) -> [Int] {
        if let child = nodes[node].children[key] {
            return visited.insert(child).inserted ? [child] : []
        }
        // On bytes: String's `contains` of a string goes through Foundation here, and this runs once per member.
        guard key.utf8.contains(UInt8(ascii: "/")) else { return [] }
        var chain: [Int] = []
        var current = node
        for part in key.split(separator: "/" as Character, omittingEmptySubsequences: false) {
            guard let next = nodes[current].children[String(part)] else { return [] }
            chain.append(next)
            current = next
        }
        return visited.insert(chain[0]).inserted ? chain : []
    }
}
