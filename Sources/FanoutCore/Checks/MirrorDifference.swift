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

/// A rule over a relation and its mirror. The source of truth wins: a missing mirror entry is added, and a
/// mirror entry without its source is deleted. A rule says where each side of an edge is stored and what its
/// findings say; the comparison and the findings are made here, once, for every mirrored relation.
protocol MirrorRule: ConsistencyRule {
    associatedtype Edge
    /// The source of truth's edges and the mirror's.
    func sides(of dataset: Dataset) -> (source: [Edge], mirror: [Edge])
    /// The edge as one integer, for set membership.
    func pair(_ edge: Edge) -> Int64
    /// Where the source side and the mirror side of `edge` are stored.
    func paths(of edge: Edge, in dataset: Dataset) -> (source: String?, mirror: String?)
    /// Whether a missing mirror entry is this rule's to report (edges of deleted users are other rules').
    func reportsMissing(_ edge: Edge, in context: CheckContext) -> Bool
    /// The message of an edge the mirror lacks.
    func missingMessage(_ edge: Edge, in context: CheckContext) -> String
    /// The message of a mirror entry without its source.
    func orphanMessage(_ edge: Edge, in context: CheckContext) -> String
    /// Whether an orphan's finding names the source path first (what is missing) rather than the mirror's.
    var orphanNamesSourceFirst: Bool { get }

    /// The SQL of the two sides: each side's table and pattern, the two columns naming an edge, and an edge
    /// row's captures (`row` is the row's alias).
    func sqlSides(_ schema: Schema) -> (source: (table: String, pattern: PathPattern), mirror: (table: String, pattern: PathPattern))
    var sqlPair: (String, String) { get }
    func sqlCaptures(_ row: String) -> [String: String]
    /// `reportsMissing`, `missingMessage` and `orphanMessage` in SQL, over the edge row `row`.
    func sqlReportsMissing(_ row: String, _ q: SQLContext) -> String
    func sqlMissingMessage(_ row: String, _ q: SQLContext) -> [String]
    func sqlOrphanMessage(_ row: String, _ q: SQLContext) -> [String]
}

extension MirrorRule {
    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset
        let edgeValue = dataset.schema.edgeValue.json
        let (source, mirror) = sides(of: dataset)
        let difference = MirrorDifference(source: source, mirror: mirror, packed: pair)
        var findings: [Finding] = []
        for edge in difference.notMirrored where reportsMissing(edge, in: context) {
            guard case let (source?, mirror?) = paths(of: edge, in: dataset) else { continue }
            findings.append(finding(
                missingMessage(edge, in: context), paths: [mirror, source], expected: edgeValue,
                actual: JSONValue.null, fix: [PatchEntry(mirror, edgeValue)]))
        }
        for edge in difference.notInSource {
            guard case let (source?, mirror?) = paths(of: edge, in: dataset) else { continue }
            let message = orphanMessage(edge, in: context), fix = [PatchEntry(mirror, .null)]
            findings.append(orphanNamesSourceFirst
                ? finding(message, paths: [source, mirror], expected: edgeValue, actual: JSONValue.null, fix: fix)
                : finding(message, paths: [mirror, source], expected: JSONValue.null, actual: true, fix: fix))
        }
        return findings
    }

    /// `findings` as one query: the first row of each edge one side has and the other lacks.
    func sql(_ q: SQLContext) -> String {
        let (source, mirror) = sqlSides(q.schema), (a, b) = sqlPair
        let sourcePath = q.path(source.pattern, sqlCaptures("e")), mirrorPath = q.path(mirror.pattern, sqlCaptures("e"))
        func firsts(_ name: String, _ table: String) -> String {
            "\(name) AS (\n  SELECT s.* FROM \(q.table(table)) s QUALIFY row_number() OVER (PARTITION BY s.\(a), s.\(b) ORDER BY s.seq) = 1\n)"
        }
        func absent(from table: String) -> String {
            "NOT EXISTS (SELECT 1 FROM \(q.table(table)) o WHERE o.\(a) = e.\(a) AND o.\(b) = e.\(b))"
        }
        let fix = q.fix([(mirrorPath, "'null'")])
        let orphan = orphanNamesSourceFirst
            ? q.finding(paths: [sourcePath, mirrorPath], expected: q.edgeValue, actual: "'null'", fix: fix, message: sqlOrphanMessage("e", q))
            : q.finding(paths: [mirrorPath, sourcePath], expected: "'null'", actual: "'true'", fix: fix, message: sqlOrphanMessage("e", q))
        return q.with(firsts("source_edges", source.table), firsts("mirror_edges", mirror.table))
            + q.finding(paths: [mirrorPath, sourcePath], expected: q.edgeValue, actual: "'null'",
                        fix: q.fix([(mirrorPath, q.edgeValue)]), message: sqlMissingMessage("e", q))
            + "\nFROM source_edges e\nWHERE \(absent(from: mirror.table)) AND \(sqlReportsMissing("e", q))\nUNION ALL\n"
            + orphan + "\nFROM mirror_edges e\nWHERE \(absent(from: source.table))"
    }
}
