/// What the declarations' queries share (docs/layouts.md "Declaring your app's copies"): their rows in the `declared`
/// table, the kept facts of each relation, and stored numbers read from JSON text.
extension SQLContext {
    /// The row set that declaration `name` checks.
    func rowSet(rowsOf name: String) -> RowSet {
        let sets = RowSets(schema)
        return sets.sets[sets.rows(of: name)!]
    }

    /// The rows of `set` in the `declared` table, as a subquery with its columns `path`, `seq`, `a`, `b`, `value`.
    func declaredRows(_ set: RowSet) -> String {
        "(SELECT x.* FROM \(table("declared")) x WHERE x.role = \(text(set.role.rawValue)) AND x.name = \(text(set.name)))"
    }

    /// The integer a stored value's JSON text holds (`4`, `4.0`, `1e2`), or null: what `StoredValue.int64` reads.
    func storedInteger(_ json: String) -> String {
        let number = "TRY_CAST(\(json) AS DOUBLE)"
        return "CASE WHEN regexp_extract(\(json), '^-?[0-9]{1,18}$', 0) <> '' THEN CAST(\(json) AS BIGINT) "
            + "WHEN \(number) % 1 = 0 AND abs(\(number)) < 9.2e18 THEN CAST(\(number) AS BIGINT) END"
    }

    /// `kept AS (…)`: the facts of `relation` the repair keeps, one row per pair, with a column per end
    /// (`RelationFacts.kept`); for timelines, preceded by `members`.
    func keptFacts(_ relation: DeclaredRelation, per: String? = nil, keepsSelfFollows: Bool = false) -> String {
        if relation.countsAsRecords(per: per) {
            return keptRecords(relation, per: per)
        }
        func exists(_ checks: [(Bool, String)]) -> String {
            let conditions = checks.filter(\.0).map(\.1)
            return conditions.isEmpty ? "" : "\n  WHERE " + conditions.joined(separator: " AND ")
        }
        let hasUsers = schema.users != nil, hasPosts = schema.posts != nil
        switch relation {
        case .users:
            return "kept AS (\n  SELECT u.user AS user FROM live_users u\n)"
        case .posts:
            return "kept AS (\n  SELECT p.owner AS poster, p.post AS post FROM live_posts p\n)"
        case .likes:
            return "kept AS (\n  SELECT DISTINCT l.post AS post, l.user AS user FROM \(table("likes")) l"
                + exists([(hasUsers, userExists("l.user")), (hasPosts, postExists("l.post"))]) + "\n)"
        case .follows:
            return "kept AS (\n  SELECT DISTINCT f.user AS user, f.target AS target FROM \(followSource) f"
                + exists([
                    (!keepsSelfFollows, "f.user <> f.target"), (hasUsers, userExists("f.user")),
                    (hasUsers, userExists("f.target")),
                ]) + "\n)"
        case .comments:
            return "kept AS (\n  SELECT c.post AS post, c.id AS id, c.user AS user FROM \(table("comments")) c"
                + exists([(hasPosts, postExists("c.post")), (hasUsers, userExists("c.user"))])
                + "\n  QUALIFY row_number() OVER (PARTITION BY c.post, c.id ORDER BY c.seq) = 1\n)"
        case .flags:
            return "kept AS (\n  SELECT DISTINCT g.post AS post, g.user AS user FROM \(table("flags")) g\n)"
        case .timeline:
            return timelineMembers + ",\nkept AS (\n  SELECT m.reader AS user, m.post AS post FROM members m\n)"
        case .records: return keptRecords(relation, per: per)
        }
    }

    /// `kept AS (…)`: the records of `relation` (``RowSet/Role/records``), each (group, key) pair once, with the
    /// key as `record` and the group as `grp` (`RelationFacts.recordTally`).
    private func keptRecords(_ relation: DeclaredRelation, per: String?) -> String {
        let set = RowSets.records(relation, by: per, in: schema)!
        let group = per == nil ? "" : ", x.b AS grp"
        return "kept AS (\n  SELECT DISTINCT x.a AS record\(group) FROM \(declaredRows(set)) x\n  WHERE x.a IS NOT NULL"
            + "\(per == nil ? "" : " AND x.b IS NOT NULL")\n)"
    }
}
