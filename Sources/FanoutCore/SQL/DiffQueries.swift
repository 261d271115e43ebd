/// `fanout diff` as SQL over two table folders of `fanout tables` (`fanout sql --diff OLD_TABLES NEW_TABLES`,
/// docs/diff-and-history.md, "Past one machine"): the same comparison, for exports too large for one process.
///
/// The older export's tables are read under names starting `old_`, the newer one's under `new_`. Two views hold
/// each export's findings (every rule's query, as `fanout sql` gives them, over its tables); four queries return
/// what `fanout diff --format json` reports: `data` the facts added, removed and changed (relation, change, path,
/// and the old and new values as JSON text), `counts` each relation's distinct paths in each export, `rule_counts`
/// each rule's findings in each, and `findings` the new and fixed ones, matched by rule and first path as a
/// baseline matches them. The runners (`spark/fanout_check.py --diff`, `spark/fanout_duckdb.py --diff`) make the
/// JSON report from their rows.
public struct DiffQueries: Sendable {
    /// A named query: a view to create, or a query whose rows the runner reads.
    public struct Query: Sendable, Equatable {
        public let name: String
        public let sql: String
    }

    /// What the two exports' tables are called: `old_users`, `new_users`, …
    public static let oldPrefix = "old_", newPrefix = "new_"

    /// `old_findings` and `new_findings`, to create before the queries run.
    public let views: [Query]
    /// `data`, `counts`, `rule_counts` and `findings`.
    public let queries: [Query]
    /// The relations compared, in the report's order.
    public let relations: [DiffRelation]
    /// The rules that run on both exports, in report order, and those skipped.
    public let rules: [RuleQuery]
    public let skipped: [SkippedRule]

    public init(schema: Schema, configuration: AuditConfiguration = AuditConfiguration(), dialect: SQLDialect) {
        let old = SQLContext(schema: schema, dialect: dialect, rule: "", severity: .info, tablePrefix: Self.oldPrefix)
        let new = SQLContext(schema: schema, dialect: dialect, rule: "", severity: .info, tablePrefix: Self.newPrefix)
        relations = DiffRelation.all(in: schema)
        (rules, skipped) = RuleQueries.queries(schema: schema, configuration: configuration, dialect: dialect)
        func findings(_ prefix: String) -> String {
            let queries = RuleQueries.queries(
                schema: schema, configuration: configuration, dialect: dialect, tablePrefix: prefix
            ).queries
            let rows =
                queries.isEmpty
                // No rule runs: an empty view of the finding rows' columns.
                ? old.finding(
                    paths: [],
                    pathList: "CAST(\(dialect.array([])) AS \(dialect == .spark ? "array<string>" : "VARCHAR[]"))",
                    fix: old.fix([]), message: [old.null]) + "\nWHERE 1 = 0"
                : queries.map { "SELECT * FROM (\n\($0.sql)\n)" }.joined(separator: "\nUNION ALL\n")
            // The first path as a column of its own: findings then match on plain columns, which both engines join
            // by hashing (an expression in the join made Spark 4's generated code fail to compile, and fall back).
            return "SELECT f.*, \(dialect.firstOrEmpty("f.paths")) AS first_path FROM (\n\(rows)\n) f"
        }
        let oldFindings = dialect.table("old_findings"), newFindings = dialect.table("new_findings")
        views = [
            Query(name: "old_findings", sql: findings(Self.oldPrefix)),
            Query(name: "new_findings", sql: findings(Self.newPrefix)),
        ]
        let columns =
            "f.rule AS rule, f.severity AS severity, f.paths AS paths, f.expected AS expected, f.actual AS actual, "
            + "f.fix AS fix, f.message AS message"
        func unmatched(_ from: String, _ other: String) -> String {
            "FROM \(from) f\nWHERE NOT EXISTS (SELECT 1 FROM \(other) g WHERE g.rule = f.rule AND g.first_path = f.first_path)"
        }
        let sides = (old: old, new: new)
        queries = [
            Query(
                name: "data",
                sql: relations.map { Self.changes($0, sides, schema: schema) }.joined(separator: "\nUNION ALL\n")),
            Query(
                name: "counts",
                sql: relations.map { Self.counts($0, sides, schema: schema) }.joined(separator: "\nUNION ALL\n")),
            Query(
                name: "rule_counts",
                sql: """
                    SELECT f.rule AS rule, sum(f.o) AS before, sum(f.n) AS after
                    FROM (SELECT rule, 1 AS o, 0 AS n FROM \(oldFindings) UNION ALL SELECT rule, 0 AS o, 1 AS n FROM \(newFindings)) f
                    GROUP BY f.rule
                    """),
            Query(
                name: "findings",
                sql: "SELECT 'new' AS change, \(columns)\n\(unmatched(newFindings, oldFindings))\nUNION ALL\n"
                    + "SELECT 'fixed' AS change, \(columns)\n\(unmatched(oldFindings, newFindings))"),
        ]
    }

    /// The rows of `relation` in one export's tables: its table (the `declared` table's rows of a declaration),
    /// and each row's path as the diff names it (a declared counter's or copy's field below its row's node).
    private static func source(_ relation: DiffRelation, _ q: SQLContext, schema: Schema) -> (
        from: String, path: String
    ) {
        guard case .declared(let name) = relation else { return (q.table(relation.name) + " s", "s.path") }
        let sets = RowSets(schema)
        let field = sets.rows(of: name).map { sets.sets[$0].fieldPart } ?? FieldPath("")
        return (
            "\(q.table("declared")) s WHERE s.role = 'rows' AND s.name = \(q.text(name))",
            field.keys.isEmpty ? "s.path" : q.path("s.path", field: field)
        )
    }

    /// A fact's value as JSON text: an object of ``DiffRelation/fields(in:)``, each member JSON (null when absent),
    /// as `fanout diff` writes it.
    private static func value(_ relation: DiffRelation, _ q: SQLContext, schema: Schema) -> String {
        q.object(
            relation.fields(in: schema).map { field in
                let column = "s.\(field)"
                let json: String
                switch field {
                case "created_at", "like_count": json = "CAST(\(column) AS \(q.dialect.text))"
                // A declared value is JSON text already; objects and arrays are kept as `{…}` and `[…]`, strings here.
                case "value" where relation.isDeclared:
                    json = "CASE WHEN \(column) IN ('{…}', '[…]') THEN \(q.json(column)) ELSE \(column) END"
                default: json = q.json(column)
                }
                return (FieldPath(field), "coalesce(\(json), 'null')")
            })
    }

    /// The facts of `relation` that differ: each export's last row of each path, joined by path.
    private static func changes(_ relation: DiffRelation, _ sides: (old: SQLContext, new: SQLContext), schema: Schema)
        -> String
    {
        func latest(_ q: SQLContext) -> String {
            let (from, path) = source(relation, q, schema: schema)
            return "(SELECT \(path) AS path, \(value(relation, q, schema: schema)) AS v FROM \(from)\n"
                + "  QUALIFY row_number() OVER (PARTITION BY s.path ORDER BY s.seq DESC) = 1)"
        }
        return """
            SELECT \(sides.old.text(relation.name)) AS relation,
              CASE WHEN o.path IS NULL THEN 'added' WHEN n.path IS NULL THEN 'removed' ELSE 'changed' END AS change,
              coalesce(n.path, o.path) AS path, o.v AS old_value, n.v AS new_value
            FROM \(latest(sides.old)) o
            FULL OUTER JOIN \(latest(sides.new)) n ON o.path = n.path
            WHERE o.path IS NULL OR n.path IS NULL OR o.v <> n.v
            """
    }

    /// The distinct paths of `relation` in each export.
    private static func counts(_ relation: DiffRelation, _ sides: (old: SQLContext, new: SQLContext), schema: Schema)
        -> String
    {
        func count(_ q: SQLContext) -> String {
            "(SELECT count(DISTINCT s.path) FROM \(source(relation, q, schema: schema).from))"
        }
        return
            "SELECT \(sides.old.text(relation.name)) AS relation, \(count(sides.old)) AS before, \(count(sides.new)) AS after"
    }
}

extension DiffRelation {
    /// Whether it is a declaration's rows.
    var isDeclared: Bool { if case .declared = self { true } else { false } }
}
