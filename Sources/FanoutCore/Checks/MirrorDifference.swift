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
    init(source: [Edge], mirror: [Edge], packed: (Edge) -> Int64) {
        let sourceSet = PackedPairSet(source.lazy.map(packed)), mirrorSet = PackedPairSet(mirror.lazy.map(packed))
        notMirrored = Self.each(of: source, in: sourceSet.subtracting(mirrorSet), packed)
        notInSource = Self.each(of: mirror, in: mirrorSet.subtracting(sourceSet), packed)
    }

    /// The edges of `edges` in `missing`, the first of each.
    private static func each(of edges: [Edge], in missing: PackedPairSet, _ packed: (Edge) -> Int64) -> [Edge] {
        var reported = Set<Int64>()
        return edges.filter { edge in
            let pair = packed(edge)
            return missing.contains(pair) && reported.insert(pair).inserted
        }
    }
}

/// How a mirror rule reports a ``MirrorDifference``: the source of truth wins, so a missing mirror entry is
/// added and a mirror entry without its source is deleted.
struct MirrorFindings<Edge> {
    /// Where the source side of an edge is stored.
    var sourcePath: (Edge) -> String?
    /// Where the mirror side of an edge is stored.
    var mirrorPath: (Edge) -> String?
    /// Whether a missing mirror entry is this rule's to report (edges of deleted users are other rules').
    var reportsMissing: (Edge) -> Bool
    /// The message of an edge the mirror lacks.
    var missingMessage: (Edge) -> String
    /// The message of a mirror entry without its source.
    var orphanMessage: (Edge) -> String
    /// Whether an orphan's finding names the source path first (what is missing) rather than the mirror's.
    var orphanNamesSourceFirst: Bool

    /// The findings of `difference`, for `rule`, with fixes writing `edgeValue`.
    func findings(_ difference: MirrorDifference<Edge>, rule: some ConsistencyRule, edgeValue: JSONValue) -> [Finding] {
        var findings: [Finding] = []
        for edge in difference.notMirrored where reportsMissing(edge) {
            guard let mirror = mirrorPath(edge), let source = sourcePath(edge) else { continue }
            findings.append(rule.finding(
                missingMessage(edge), paths: [mirror, source], expected: edgeValue, actual: JSONValue.null,
                fix: [PatchEntry(mirror, edgeValue)]))
        }
        for edge in difference.notInSource {
            guard let mirror = mirrorPath(edge), let source = sourcePath(edge) else { continue }
            let fix = [PatchEntry(mirror, .null)]
            findings.append(orphanNamesSourceFirst
                ? rule.finding(orphanMessage(edge), paths: [source, mirror], expected: edgeValue, actual: JSONValue.null, fix: fix)
                : rule.finding(orphanMessage(edge), paths: [mirror, source], expected: JSONValue.null, actual: true, fix: fix))
        }
        return findings
    }
}
