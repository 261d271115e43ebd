import FanoutJSON

/// `user-name-confusable`: no two users have usernames that look alike.
struct UserNameConfusableRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "user-name-confusable", defaultSeverity: .info,
        summary: "No two users have usernames that look alike (other case, look-alike letters, invisible characters).",
        explanation: """
            `alice`, `Alice`, `al\\u{200B}ice` (a zero-width space), `\\u{202E}ecila` (a right-to-left override) and \
            `аlice` (a Cyrillic а) all read "alice": in a likers list, a feed or a follower list one user passes for \
            another. Fanout's pages spell invisible characters out and isolate names, but the app shows them as \
            they are. Two usernames look alike when they are the same without invisible characters, case, and with \
            the Cyrillic, Greek and fullwidth letters drawn like Latin ones, `0` and `1` read as `o` and `l` (a small \
            table, not all of Unicode's confusables). One finding names every user of a look-alike group; there is no \
            mechanical fix: which user renames is the app's decision.
            """,
        isMechanical: false
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.users(schema) ?? (schema.users?.username == nil ? "the schema's users have no username" : nil)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        let field = dataset.schema.users!.username!.description
        var groups: [String: [Int]] = [:]
        for (u, user) in dataset.users.enumerated() where derived.user(user.key) == u {
            guard let username = user.username else { continue }
            groups[LookAlike.skeleton(username), default: []].append(u)
        }
        var found: [(first: String, finding: Finding)] = []
        for (skeleton, users) in groups where Set(users.map { dataset.users[$0].username! }).count > 1 {
            let uids = users.map { dataset.key(dataset.users[$0].key) }.sorted(by: Self.precedes)
            let paths = uids.map { "\(dataset.path(ofUser: dataset.keyID($0)!))/\(field)" }
            found.append(
                (
                    uids[0],
                    finding(
                        "the usernames of users \(uids.joined(separator: ", ")) look alike: each reads \"\(skeleton)\"",
                        paths: paths, actual: skeleton)
                ))
        }
        return found.sorted { Self.precedes($0.first, $1.first) }.map(\.finding)
    }

    /// Byte order, as SQL compares strings.
    private static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    func sql(_ q: SQLContext) -> String {
        let d = q.dialect
        let path =
            q.path(q.schema.users!.pattern, ["user": "n.user"]) + " || "
            + q.text("/" + q.schema.users!.username!.description)
        return q.with(
            """
            named AS (
              SELECT u.user AS user, u.username AS username, \(skeleton("u.username", q)) AS skeleton
              FROM live_users u WHERE u.username IS NOT NULL
            ),
            alike AS (
              SELECT n.skeleton AS skeleton, \(d.orderedList("n.user", by: "n.user")) AS users,
                \(d.orderedList(path, by: "n.user")) AS paths
              FROM named n GROUP BY n.skeleton HAVING count(DISTINCT n.username) > 1
            )
            """)
            + q.finding(
                paths: [], pathList: "g.paths", actual: q.json("g.skeleton"), fix: q.fix([]),
                message: [
                    "'the usernames of users '", d.join("g.users", "', '"), "' look alike: each reads \"'",
                    "g.skeleton", "'\"'",
                ]
            ) + "\nFROM alike g"
    }

    /// ``LookAlike/skeleton(_:)`` in SQL: what follows the first right-to-left override reversed, the invisible
    /// scalars removed by a regular expression (a class of them as they are, no escapes, which both engines read
    /// alike), then `translate` with the table.
    private func skeleton(_ expression: String, _ q: SQLContext) -> String {
        let override = q.text(String(LookAlike.rightToLeftOverride))
        let at = "instr(\(expression), \(override))"
        let drawn =
            "CASE WHEN \(at) > 0 THEN substr(\(expression), 1, \(at) - 1) || \(override) || "
            + "reverse(substr(\(expression), \(at) + 1)) ELSE \(expression) END"
        let ranges = VisibleText.invisibleRanges.map { range in
            let (low, high) = (Unicode.Scalar(range.lowerBound)!, Unicode.Scalar(range.upperBound)!)
            return low == high ? "\(low)" : "\(low)-\(high)"
        }
        let removed = q.dialect.replacingAll(drawn, pattern: q.text("[" + ranges.joined() + "]"), with: "''")
        return "translate(\(removed), \(q.text(LookAlike.mapped)), \(q.text(LookAlike.latin)))"
    }
}
