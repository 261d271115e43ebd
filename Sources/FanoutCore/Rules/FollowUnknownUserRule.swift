import FanoutJSON

/// `follow-unknown-user`: both ends of every follow exist.
struct FollowUnknownUserRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "follow-unknown-user", defaultSeverity: .error,
        summary: "Both ends of every follow exist.",
        explanation: """
            Deleting an account leaves its follows behind in other users' `following` and `followers` lists, \
            which inflates follower counts. The fix deletes the follow on both sides.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.follows(schema) ?? Requirement.users(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        var seen = Set<Int64>()
        var findings: [Finding] = []
        for follow in [dataset.following, dataset.followers].joined()
        where derived.user(follow.user) == nil || derived.user(follow.target) == nil {
            // Only follows with an unknown end are remembered: hashing millions of sound ones is the slow part.
            guard seen.insert(packed(follow)).inserted else { continue }
            let unknown = [follow.user, follow.target].filter { derived.user($0) == nil }
            let paths = [dataset.path(ofFollowing: follow), dataset.path(ofFollower: follow)].compactMap { $0 }
            findings.append(
                finding(
                    "\(context.name(follow.user)) follows \(context.name(follow.target)), but "
                        + unknown.map { dataset.key($0) }.joined(separator: " and ")
                        + (unknown.count == 1 ? " does not exist" : " do not exist"),
                    paths: paths, expected: JSONValue.null, actual: true, fix: paths.map { PatchEntry($0, .null) }
                ))
        }
        return findings
    }

    func sql(_ q: SQLContext) -> String {
        let paths = followPaths(q, "f")
        return q.with(
            followEdges(q),
            """
            firsts AS (
              SELECT e.* FROM follow_edges e
              WHERE NOT \(q.userExists("e.user")) OR NOT \(q.userExists("e.target"))
              QUALIFY row_number() OVER (PARTITION BY e.user, e.target ORDER BY e.side, e.seq) = 1
            )
            """,
            """
            known AS (
              SELECT e.*, ku.user IS NOT NULL AS user_known, kt.user IS NOT NULL AS target_known
              FROM firsts e LEFT JOIN live_users ku ON ku.user = e.user LEFT JOIN live_users kt ON kt.user = e.target
            )
            """)
            + q.finding(
                paths: paths, expected: "'null'", actual: "'true'", fix: q.fix(paths.map { ($0, "'null'") }),
                message: [
                    q.name("f.user"), "' follows '", q.name("f.target"), "', but '",
                    "CASE WHEN NOT f.user_known AND NOT f.target_known THEN f.user || ' and ' || f.target || ' do not exist' "
                        + "WHEN NOT f.user_known THEN f.user || ' does not exist' ELSE f.target || ' does not exist' END",
                ]
            ) + "\nFROM known f\nWHERE NOT f.user_known OR NOT f.target_known"
    }
}
