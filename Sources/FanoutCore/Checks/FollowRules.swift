import FanoutJSON

/// `follow-mirror-missing`: `following` and `followers` agree both ways.
struct FollowMirrorMissingRule: MirrorRule {
    let descriptor = RuleDescriptor(
        id: "follow-mirror-missing", defaultSeverity: .error,
        summary: "Every follow is stored in both `following` and `followers`.",
        explanation: """
            Following writes `following/{user}/{target}` and `followers/{target}/{user}` in one multi-path \
            update, but older clients or manual edits write one side only. `following` is the source of truth \
            (it drives the timeline): a missing `followers` entry is added, and a `followers` entry without its \
            `following` entry is deleted.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        if schema.following == nil { return "the schema has no following relation ([follows] following)" }
        if schema.followers == nil { return "the schema has no followers relation ([follows] followers)" }
        return nil
    }

    let orphanNamesSourceFirst = true

    func sides(of context: CheckContext) -> (source: [Follow], mirror: [Follow]) { (context.dataset.following, context.dataset.followers) }

    func pair(_ follow: Follow) -> Int64 { packed(follow) }

    func paths(of follow: Follow, fromSource: Bool, in dataset: Dataset) -> (source: String?, mirror: String?) {
        let other = Follow(user: follow.user, target: follow.target)
        return fromSource ? (dataset.path(ofFollowing: follow), dataset.path(ofFollower: other))
            : (dataset.path(ofFollowing: other), dataset.path(ofFollower: follow))
    }

    func reportsMissing(_ follow: Follow, in context: CheckContext) -> Bool {
        // A follow of a deleted user or of oneself is deleted, not mirrored: other rules report those.
        follow.user != follow.target && (context.dataset.schema.users == nil
            || (context.derived.user(follow.user) != nil && context.derived.user(follow.target) != nil))
    }

    func entryValue(_ follow: Follow, in dataset: Dataset) -> JSONValue {
        dataset.entryValue(dataset.schema.followers!, user: follow.user, target: follow.target)
    }

    func sqlEntryValue(_ row: String, _ q: SQLContext) -> String {
        q.entryValue(q.schema.followers!, ["user": "\(row).user", "target": "\(row).target"])
    }

    func missingMessage(_ follow: Follow, in context: CheckContext) -> String {
        "\(context.name(follow.user)) follows \(context.name(follow.target)) but is missing from their followers"
    }

    func orphanMessage(_ follow: Follow, in context: CheckContext) -> String {
        "\(context.name(follow.user)) is listed among \(context.name(follow.target))'s followers but does not follow them"
    }

    func sqlSides(_ q: SQLContext) -> (source: MirrorSide, mirror: MirrorSide) {
        (q.side("following", q.schema.following!), q.side("followers", q.schema.followers!))
    }

    var sqlPair: (String, String) { ("user", "target") }

    func sqlCaptures(_ row: String) -> [String: String] { ["user": "\(row).user", "target": "\(row).target", "id": "\(row).id"] }

    func sqlReportsMissing(_ row: String, _ q: SQLContext) -> String {
        "\(row).user <> \(row).target"
            + (q.schema.users == nil ? "" : " AND \(q.userExists("\(row).user")) AND \(q.userExists("\(row).target"))")
    }

    func sqlMissingMessage(_ row: String, _ q: SQLContext) -> [String] {
        [q.name("\(row).user"), "' follows '", q.name("\(row).target"), "' but is missing from their followers'"]
    }

    func sqlOrphanMessage(_ row: String, _ q: SQLContext) -> [String] {
        [q.name("\(row).user"), "' is listed among '", q.name("\(row).target"), "'''s followers but does not follow them'"]
    }
}

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
            findings.append(finding(
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
        return q.with(followEdges(q), """
            firsts AS (
              SELECT e.* FROM follow_edges e QUALIFY row_number() OVER (PARTITION BY e.user, e.target ORDER BY e.side, e.seq) = 1
            )
            """, """
            known AS (
              SELECT e.*, ku.user IS NOT NULL AS user_known, kt.user IS NOT NULL AS target_known
              FROM firsts e LEFT JOIN live_users ku ON ku.user = e.user LEFT JOIN live_users kt ON kt.user = e.target
            )
            """) + q.finding(
            paths: paths, expected: "'null'", actual: "'true'", fix: q.fix(paths.map { ($0, "'null'") }),
            message: [q.name("f.user"), "' follows '", q.name("f.target"), "', but '",
                      "CASE WHEN NOT f.user_known AND NOT f.target_known THEN f.user || ' and ' || f.target || ' do not exist' "
                        + "WHEN NOT f.user_known THEN f.user || ' does not exist' ELSE f.target || ' does not exist' END"]
        ) + "\nFROM known f\nWHERE NOT f.user_known OR NOT f.target_known"
    }
}

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
        for follow in [dataset.following, dataset.followers].joined() where follow.user == follow.target && seen.insert(follow.user).inserted {
            let paths = [dataset.path(ofFollowing: follow), dataset.path(ofFollower: follow)].compactMap { $0 }
            findings.append(finding(
                "\(context.name(follow.user)) follows themselves", paths: paths,
                expected: JSONValue.null, actual: true, fix: paths.map { PatchEntry($0, .null) }
            ))
        }
        return findings
    }

    func sql(_ q: SQLContext) -> String {
        let paths = followPaths(q, "f")
        return q.with(followEdges(q), """
            firsts AS (
              SELECT e.* FROM follow_edges e WHERE e.user = e.target
              QUALIFY row_number() OVER (PARTITION BY e.user ORDER BY e.side, e.seq) = 1
            )
            """) + q.finding(
            paths: paths, expected: "'null'", actual: "'true'", fix: q.fix(paths.map { ($0, "'null'") }),
            message: [q.name("f.user"), "' follows themselves'"]
        ) + "\nFROM firsts f"
    }
}

/// `follow_edges AS (user, target, id, side, seq)`: the rows of `following` (side 0), then of `followers`.
private func followEdges(_ q: SQLContext) -> String {
    """
    follow_edges AS (
      SELECT f.user AS user, f.target AS target, f.id AS id, 0 AS side, f.seq AS seq FROM \(q.table("following")) f
      UNION ALL
      SELECT f.user AS user, f.target AS target, f.id AS id, 1 AS side, f.seq AS seq FROM \(q.table("followers")) f
    )
    """
}

/// The paths of the follow `row` under `following` and `followers`, for the relations the schema has.
private func followPaths(_ q: SQLContext, _ row: String) -> [String] {
    let captures = ["user": "\(row).user", "target": "\(row).target", "id": "\(row).id"]
    return [q.schema.following, q.schema.followers].compactMap { $0.map { q.path($0.pattern, captures) } }
}
