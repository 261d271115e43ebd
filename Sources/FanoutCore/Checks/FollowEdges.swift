import FanoutJSON

/// `follow_edges AS (user, target, id, side, seq)`: the rows of `following` (side 0), then of `followers`.
func followEdges(_ q: SQLContext) -> String {
    """
    follow_edges AS (
      SELECT f.user AS user, f.target AS target, f.id AS id, 0 AS side, f.seq AS seq FROM \(q.table("following")) f
      UNION ALL
      SELECT f.user AS user, f.target AS target, f.id AS id, 1 AS side, f.seq AS seq FROM \(q.table("followers")) f
    )
    """
}

/// The paths of the follow `row` under `following` and `followers`, for the relations the schema has.
func followPaths(_ q: SQLContext, _ row: String) -> [String] {
    let captures = ["user": "\(row).user", "target": "\(row).target", "id": "\(row).id"]
    return [q.schema.following, q.schema.followers].compactMap { $0.map { q.path($0.pattern, captures) } }
}
