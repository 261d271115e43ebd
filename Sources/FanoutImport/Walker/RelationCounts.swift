/// A count per ``RelationKind``, held inline: the walker counts once per entity, and an array would be asked each
/// time whether it is shared.
struct RelationCounts {
    private var counts: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    init() {
        assert(MemoryLayout.size(ofValue: counts) == RelationKind.allCases.count * MemoryLayout<Int>.size)
    }

    /// The count of the relation whose ``RelationKind/rawValue`` is `relation`.
    subscript(relation: Int) -> Int {
        var counts = counts
        return withUnsafeBytes(of: &counts) { $0.load(fromByteOffset: relation &* 8, as: Int.self) }
    }

    /// Adds `count` to the count of the relation whose ``RelationKind/rawValue`` is `relation`.
    @inline(__always) mutating func add(_ count: Int, to relation: Int) {
        withUnsafeMutableBytes(of: &counts) {
            let at = relation &* 8
            $0.storeBytes(of: $0.load(fromByteOffset: at, as: Int.self) &+ count, toByteOffset: at, as: Int.self)
        }
    }

    /// The counts in ``RelationKind`` order.
    var array: [Int] { RelationKind.allCases.map { self[$0.rawValue] } }
}
