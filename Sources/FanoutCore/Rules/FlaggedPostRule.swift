import FanoutJSON

/// `post-flagged`: lists the posts users flagged as inappropriate (Parse's `FlaggedContent`), so a moderator
/// finds them in the report; their pages mark them too.
struct FlaggedPostRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "post-flagged", defaultSeverity: .info,
        summary: "Lists every post users flagged as inappropriate, with who flagged it.",
        explanation: """
            Makestagram on Parse lets users flag a post (a `FlaggedContent` row with `fromUser` and `toPost`) \
            but has no moderation screen: flags pile up unseen. This is not an inconsistency but a to-do list for \
            a moderator. The post's path comes first, then the flag rows. Nothing is fixed mechanically: \
            whether to remove the post is a decision.
            """,
        isMechanical: false
    )

    func missingRequirement(in schema: Schema) -> String? {
        schema.flags == nil ? "the schema has no flags relation ([flags] path)" : nil
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        // Flags grouped by post, in the order their posts were first flagged.
        var order: [KeyID] = []
        var byPost: [KeyID: [Flag]] = [:]
        for flag in dataset.flags {
            if byPost[flag.post] == nil { order.append(flag.post) }
            byPost[flag.post, default: []].append(flag)
        }
        return order.map { key in
            let flags = byPost[key]!
            var flaggers: [String] = []
            for flag in flags where !flaggers.contains(context.name(flag.user)) {
                flaggers.append(context.name(flag.user))
            }
            let post = derived.post(key).map { dataset.posts[$0] }
            let postPath = post.map { dataset.path(of: $0) }
            let subject =
                post.map { "post \(dataset.key(key)) by \(context.name($0.owner))" }
                ?? "post \(dataset.key(key)), which does not exist,"
            return finding(
                "\(subject) was flagged as inappropriate by \(flaggers.joined(separator: ", "))",
                paths: [postPath].compactMap { $0 } + flags.compactMap { dataset.path(ofFlag: $0) },
                actual: flags.count
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let d = q.dialect
        let flagPath = q.path(q.schema.flags!.pattern, ["post": "f.post", "user": "f.user", "id": "f.id"])
        return q.with(
            """
            flagged AS (
              SELECT f.post AS post, f.seq AS seq, \(flagPath) AS path, \(q.name("f.user")) AS who FROM \(q.table("flags")) f
            )
            """,
            """
            flaggers AS (
              SELECT w.post AS post, \(d.join(d.orderedList("w.who", by: "w.seq"), "', '")) AS names
              FROM (SELECT f.post AS post, f.who AS who, min(f.seq) AS seq FROM flagged f GROUP BY f.post, f.who) w GROUP BY w.post
            )
            """,
            """
            groups AS (
              SELECT f.post AS post, count(*) AS n, min(f.seq) AS seq, \(d.orderedList("f.path", by: "f.seq")) AS paths
              FROM flagged f GROUP BY f.post
            )
            """)
            + q.finding(
                paths: [],
                pathList:
                    "CASE WHEN p.post IS NULL THEN g.paths ELSE \(d.concatenate(q.array(["p.path"]), "g.paths")) END",
                actual: q.integer("g.n"), fix: q.fix([]),
                message: [
                    "CASE WHEN p.post IS NULL THEN 'post ' || g.post || ', which does not exist,' "
                        + "ELSE 'post ' || g.post || ' by ' || \(q.name("p.owner")) END",
                    "' was flagged as inappropriate by '", "w.names",
                ]
            ) + "\nFROM groups g JOIN flaggers w ON w.post = g.post LEFT JOIN live_posts p ON p.post = g.post"
    }
}
