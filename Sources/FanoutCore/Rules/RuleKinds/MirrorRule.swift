import FanoutJSON

/// The mirror kind (docs/layouts.md "Declaring your app's copies"): a relation stored twice, the source of truth and
/// its mirror. The source wins: a missing mirror entry is added, and a mirror entry without its source is deleted. A
/// rule says where each side of an edge is stored and what its findings say; the comparison and the findings are made
/// here, once, for every mirrored relation: the like set and `user-likes`, `following` and `followers`, the posts and
/// `user-posts`, and each declared mirror.
protocol MirrorRule: ConsistencyRule {
    associatedtype Edge
    /// The mirror's edges: an array, or a view of the declared rows made as they are read.
    associatedtype MirrorEdges: Collection<Edge> = [Edge]
    /// The source of truth's edges and the mirror's.
    func sides(of context: CheckContext) -> (source: [Edge], mirror: MirrorEdges)
    /// The edge as one integer, for set membership.
    func pair(_ edge: Edge) -> Int64
    /// Where the source side and the mirror side of `edge` are stored; `edge` is one of the source's edges, or of
    /// the mirror's (`fromSource` false). The side it is not from may not exist yet: a row stored under a key of its
    /// own is then keyed as a new row is (``Dataset/newRowKey(_:)``).
    func paths(of edge: Edge, fromSource: Bool, in dataset: Dataset) -> (source: String?, mirror: String?)
    /// Whether a missing mirror entry is this rule's to report (edges of deleted users are other rules').
    func reportsMissing(_ edge: Edge, in context: CheckContext) -> Bool
    /// The message of an edge the mirror lacks.
    func missingMessage(_ edge: Edge, in context: CheckContext) -> String
    /// The message of a mirror entry without its source.
    func orphanMessage(_ edge: Edge, in context: CheckContext) -> String
    /// Whether an orphan's finding names the source path first (what is missing) rather than the mirror's.
    var orphanNamesSourceFirst: Bool { get }
    /// Whether an orphan may be deleted by the fix: not when its row names its ends in fields, a record of its own
    /// whose other fields may exist nowhere else (a post's copy that outlived the post).
    var deletesOrphans: Bool { get }
    /// What a missing mirror entry holds once written: the schema's edge value unless the mirror stores more.
    func entryValue(_ edge: Edge, in dataset: Dataset) -> JSONValue
    /// For a mirror whose rows are a list of bare keys: the capture that keys its rows, under which a missing
    /// entry is numbered as its list's next element, and the paths of the elements it has
    /// (``numberingListEntries(_:capture:elementPaths:)``); nil for any other mirror.
    func listNumbering(in context: CheckContext) -> (capture: String, elementPaths: () -> [String])?

    /// The SQL of the two sides: each side's rows (a table or a subquery with `path`, `seq` and a column per end)
    /// and pattern, the two columns naming an edge, and an edge row's captures (`row` is the row's alias).
    func sqlSides(_ q: SQLContext) -> (source: MirrorSide, mirror: MirrorSide)
    var sqlPair: (String, String) { get }
    func sqlCaptures(_ row: String) -> [String: String]
    /// `reportsMissing`, `missingMessage`, `orphanMessage` and `entryValue` in SQL, over the edge row `row`.
    func sqlReportsMissing(_ row: String, _ q: SQLContext) -> String
    func sqlMissingMessage(_ row: String, _ q: SQLContext) -> [String]
    func sqlOrphanMessage(_ row: String, _ q: SQLContext) -> [String]
    func sqlEntryValue(_ row: String, _ q: SQLContext) -> String
}

extension MirrorRule {
    var deletesOrphans: Bool { true }

    func entryValue(_ edge: Edge, in dataset: Dataset) -> JSONValue { dataset.schema.edgeValue.json }

    func sqlEntryValue(_ row: String, _ q: SQLContext) -> String { q.edgeValue }

    func listNumbering(in context: CheckContext) -> (capture: String, elementPaths: () -> [String])? { nil }

    func findings(in context: CheckContext) -> [Finding] {
        let found = mirrorFindings(in: context)
        guard let list = listNumbering(in: context) else { return found }
        return numberingListEntries(found, capture: list.capture, elementPaths: list.elementPaths)
    }

    /// The findings of the two sides' difference, before a list's missing entries are numbered.
    func mirrorFindings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset
        let edgeValue = dataset.schema.edgeValue.json
        let (source, mirror) = sides(of: context)
        let difference = MirrorDifference(source: source, mirror: mirror, packed: pair)
        var findings: [Finding] = []
        for edge in difference.notMirrored where reportsMissing(edge, in: context) {
            guard case (let source?, let mirror?) = paths(of: edge, fromSource: true, in: dataset) else { continue }
            let value = entryValue(edge, in: dataset)
            findings.append(
                finding(
                    missingMessage(edge, in: context), paths: [mirror, source], expected: value,
                    actual: JSONValue.null, fix: [PatchEntry(mirror, value)]))
        }
        for edge in difference.notInSource {
            guard case (let source?, let mirror?) = paths(of: edge, fromSource: false, in: dataset) else { continue }
            let message = orphanMessage(edge, in: context), fix = deletesOrphans ? [PatchEntry(mirror, .null)] : []
            findings.append(
                orphanNamesSourceFirst
                    ? finding(message, paths: [source, mirror], expected: edgeValue, actual: JSONValue.null, fix: fix)
                    : finding(message, paths: [mirror, source], expected: JSONValue.null, actual: true, fix: fix))
        }
        return findings
    }

    /// The shared view of this rule's suspects on Spark (`RuleQueries.sharedViews`; `SQLContext.mirrorSuspects`).
    func sqlSuspectsView(_ q: SQLContext) -> DerivedQuery {
        let (source, mirror) = sqlSides(q), (a, b) = sqlPair
        return DerivedQuery(
            name: SQLContext.mirrorSuspectsView(descriptor.id),
            summary: "the \(a) values whose \(descriptor.id) edges may differ between the two sides",
            sql: q.mirrorSuspectsQuery(source.from, mirror.from, by: a, b))
    }

    /// `findings` as one query: the first row of each edge one side has and the other lacks. A side's own path is
    /// its row's; the other side's is made from the pattern.
    func sql(_ q: SQLContext) -> String {
        let (source, mirror) = sqlSides(q), (a, b) = sqlPair
        func path(_ side: MirrorSide) -> String {
            q.path(
                side.pattern, sqlCaptures("e").merging(side.newRowKey.map { [side.rowKeyName: $0("e")] } ?? [:]) { $1 })
        }
        let sourcePath = path(source), mirrorPath = path(mirror)
        // On Spark, only the rows of the suspects (`q.mirrorSuspects`) are compared: the two anti joins sorted both
        // relations whole, 1.5 M follows each way on the 1.1 GB export, for a consistent export nothing. With shared
        // views the suspects are a view of their own (`sqlSuspectsView`), which the job makes once and, empty, drops
        // the comparison's four scans.
        let view = q.shared ? SQLContext.mirrorSuspectsView(descriptor.id) : "mirror_suspects"
        let suspects = q.dialect == .spark && !q.shared ? q.mirrorSuspects(source.from, mirror.from, by: a, b) : ""
        func rows(_ from: String) -> String {
            q.dialect != .spark
                ? from : "(SELECT r.* FROM \(from) r LEFT SEMI JOIN \(view) m ON m.\(a) <=> r.\(a))"
        }
        // The first row of each pair the other side lacks: the pairs are kept or dropped whole, so the rows the
        // other side holds are dropped first and only the rest are numbered (numbering every row sorted both
        // relations whole).
        func firsts(_ name: String, _ from: String, absentFrom other: String) -> String {
            "\(name) AS (\n  SELECT s.* FROM \(rows(from)) s\n  WHERE NOT EXISTS (SELECT 1 FROM \(rows(other)) o "
                + "WHERE o.\(a) = s.\(a) AND o.\(b) = s.\(b))\n"
                + "  QUALIFY row_number() OVER (PARTITION BY s.\(a), s.\(b) ORDER BY s.seq) = 1\n)"
        }
        let fix = q.fix(deletesOrphans ? [("e.path", "'null'")] : [])
        let orphan =
            orphanNamesSourceFirst
            ? q.finding(
                paths: [sourcePath, "e.path"], expected: q.edgeValue, actual: "'null'", fix: fix,
                message: sqlOrphanMessage("e", q))
            : q.finding(
                paths: ["e.path", sourcePath], expected: "'null'", actual: "'true'", fix: fix,
                message: sqlOrphanMessage("e", q))
        let value = sqlEntryValue("e", q)
        return q.with(
            suspects,
            firsts("source_edges", source.from, absentFrom: mirror.from),
            firsts("mirror_edges", mirror.from, absentFrom: source.from))
            + q.finding(
                paths: [mirrorPath, "e.path"], expected: value, actual: "'null'",
                fix: q.fix([(mirrorPath, value)]), message: sqlMissingMessage("e", q))
            + "\nFROM source_edges e\nWHERE \(sqlReportsMissing("e", q))\nUNION ALL\n"
            + orphan + "\nFROM mirror_edges e"
    }
}

/// One side of a mirrored relation in SQL: its rows (a table, or a subquery with `path`, `seq` and a column per
/// end), its pattern, and for a relation stored as rows the key of a new row over an edge row's alias.
struct MirrorSide {
    var from: String
    var pattern: PathPattern
    var newRowKey: ((String) -> String)?
    /// The capture ``newRowKey`` gives the key of: `id`, or the index of a list of bare keys.
    var rowKeyName = "id"
}

extension SQLContext {
    /// `mirror_suspects AS (a)`: the values of the first column `a` of the edges (the follower, the liked post)
    /// whose edges may differ between the two sides, by a fingerprint of each side's edges with that value
    /// (`fingerprint(of:)`: their number and two sums of bits of a hash of each edge), each side aggregated by `a`
    /// in one scan. Where the fingerprints are equal the two sides hold the same edges the same number of times, but
    /// for two different sets whose count and 62 bits of sums agree (about 2⁻⁶² for a value whose edges drifted); a
    /// value on one side only, or whose fingerprints differ, is a suspect, and only its rows are compared edge by
    /// edge (docs/performance.md "The rules on Spark and DuckDB"). Spark SQL's hash function.
    func mirrorSuspects(_ source: String, _ mirror: String, by a: String, _ b: String) -> String {
        let suspects = mirrorSuspectsQuery(source, mirror, by: a, b)
        return "mirror_suspects AS (\n  \(suspects.replacing("\n", with: "\n  "))\n)"
    }

    /// `mirrorSuspects`' query.
    func mirrorSuspectsQuery(_ source: String, _ mirror: String, by a: String, _ b: String) -> String {
        func byFirst(_ from: String) -> String {
            "SELECT r.\(a) AS \(a), \(fingerprint(of: "r.\(a), r.\(b)")) FROM \(from) r GROUP BY r.\(a)"
        }
        return differingFingerprints(a, byFirst(source), byFirst(mirror))
    }

    /// The name of the shared view of the mirror rule `rule`'s suspects: its id with `_suspects`, each character
    /// other than an ASCII letter or digit an underscore.
    package static func mirrorSuspectsView(_ rule: String) -> String {
        String(rule.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }) + "_suspects"
    }

    /// A side stored in the table `table` as the edge relation `relation`, whose ends are columns of its rows.
    func side(_ table: String, _ relation: EdgeRelation) -> MirrorSide {
        let fields = [("user", relation.user), ("post", relation.post), ("target", relation.target)].filter {
            $0.1 != nil
        }.map(\.0)
        return MirrorSide(
            from: self.table(table), pattern: relation.pattern,
            newRowKey: fields.isEmpty ? nil : { row in fields.map { "\(row).\($0)" }.joined(separator: " || '_' || ") })
    }
}
