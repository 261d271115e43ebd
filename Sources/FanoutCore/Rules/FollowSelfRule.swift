import FanoutJSON

/// `follow-self`: nobody follows themselves.
struct FollowSelfRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "follow-self", defaultSeverity: .warning,
        summary: "Nobody follows themselves.",
        explanation: """
            Own posts are already part of every timeline; a self-follow inflates follower counts and comes from a \
            client that did not hide the follow button on the user's own profile. The fix deletes it.
            """
    )

    func missingRequirement(in schema: Schema) -> String? { Requirement.follows(schema) }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset
        var seen = Set<KeyID>()
        var findings: [Finding] = []
        for follow in [dataset.following, dataset.followers].joined()
        where follow.user == follow.target && seen.insert(follow.user).inserted {
            let paths = [dataset.path(ofFollowing: follow), dataset.path(ofFollower: follow)].compactMap { $0 }
            findings.append(
                finding(
                    "\(context.name(follow.user)) follows themselves", paths: paths,
                    expected: JSONValue.null, actual: true, fix: paths.map { PatchEntry($0, .null) }
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
              SELECT e.* FROM follow_edges e WHERE e.user = e.target
              QUALIFY row_number() OVER (PARTITION BY e.user ORDER BY e.side, e.seq) = 1
            )
            """)
            + q.finding(
                paths: paths, expected: "'null'", actual: "'true'", fix: q.fix(paths.map { ($0, "'null'") }),
                message: [q.name("f.user"), "' follows themselves'"]
            ) + "\nFROM firsts f"
    }
}
