import FanoutJSON

/// `timeline-missing`: every post that belongs in a timeline has a stored entry.
struct TimelineMissingRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "timeline-missing", defaultSeverity: .error,
        summary:
            "Every post that belongs in a user's timeline (own posts, posts of followed users) has a stored entry.",
        explanation: """
            Posting fans the new post out to every follower's timeline, and following copies the followed user's \
            posts into the follower's timeline. When a fan-out fails half way, or a follower was added while the \
            post was being written, followers never see the post. The fix writes the missing entry.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.timeline(schema) ?? Requirement.posts(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        let stored = StoredTimelines(dataset, derived)
        var findings: [Finding] = []
        for (u, user) in dataset.users.enumerated() where derived.user(user.key) == u {  // the last of duplicated keys
            for p in derived.timelines[u] where !stored.contains(user: user.key, post: p) {
                let post = dataset.posts[Int(p)]
                guard let path = dataset.path(ofTimeline: user.key, post: post.key)
                else { continue }
                let whose = post.owner == user.key ? "their own post" : "\(context.name(post.owner))'s post"
                let value = timelineEntryValue(dataset, owner: post.owner, post: post.key)
                findings.append(
                    finding(
                        "\(context.name(user.key))'s timeline is missing \(whose) \(dataset.key(post.key))",
                        paths: [path], expected: value, actual: JSONValue.null, fix: [PatchEntry(path, value)]
                    ))
            }
        }
        return findings
    }

    func sql(_ q: SQLContext) -> String {
        let path = q.path(q.schema.timeline!.pattern, ["user": "m.reader", "post": "m.post", "id": "m.post"])
        let value = q.timelineValue("m.owner", post: "m.post")
        // With `timeline_gaps` shared, its members without an entry are the findings (`SQLContext.timelineGapsQuery`).
        let gaps = q.sharesTimelineGaps
        return (gaps ? "" : q.with(q.timelineMembersByReader))
            + q.finding(
                paths: [path], expected: value, actual: "'null'", fix: q.fix([(path, value)]),
                message: [
                    q.name("m.reader"), "'''s timeline is missing '",
                    "CASE WHEN m.owner = m.reader THEN 'their own post' ELSE \(q.name("m.owner")) || '''s post' END",
                    "' '", "m.post",
                ]
            )
            + (gaps
                ? "\nFROM (SELECT reader, member_post AS post, owner FROM timeline_gaps WHERE listed IS NULL) m"
                : "\nFROM members m\nWHERE NOT EXISTS (SELECT 1 FROM \(q.timelineByUser) t "
                    + "WHERE t.user = m.reader AND t.post = m.post)")
    }
}
