import FanoutJSON

/// The two ways a relation and its mirror (a like set and `user-likes`, `following` and `followers`) can
/// disagree: edges stored in the source of truth but not in the mirror, and edges in the mirror without their
/// source. Each edge appears once, in the order it is stored, whatever duplicates the export holds.
struct MirrorDifference<Edge> {
    /// Edges of the source missing from the mirror.
    let notMirrored: [Edge]
    /// Edges of the mirror missing from the source.
    let notInSource: [Edge]

    /// Compares `source` with `mirror`, edges identified by `packed`.
    init(source: some Collection<Edge>, mirror: some Collection<Edge>, packed: (Edge) -> Int64) {
        let sourceSet = PackedPairSet(source.lazy.map(packed)), mirrorSet = PackedPairSet(mirror.lazy.map(packed))
        notMirrored = Self.each(of: source, in: sourceSet.subtracting(mirrorSet), packed)
        notInSource = Self.each(of: mirror, in: mirrorSet.subtracting(sourceSet), packed)
    }

    /// The edges of `edges` in `missing`, the first of each.
    private static func each(of edges: some Collection<Edge>, in missing: PackedPairSet, _ packed: (Edge) -> Int64)
        -> [Edge]
    {
        var reported = Set<Int64>()
        return edges.filter { edge in
            let pair = packed(edge)
            return missing.contains(pair) && reported.insert(pair).inserted
        }
    }
}
