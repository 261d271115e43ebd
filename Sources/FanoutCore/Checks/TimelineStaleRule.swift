import FanoutJSON

/// `timeline-stale`: no stored entry from a user the timeline's owner does not follow.
struct TimelineStaleRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "timeline-stale", defaultSeverity: .warning,
        summary: "No stored timeline entry shows a post by someone the timeline's owner does not follow.",
        explanation: """
            Unfollowing should remove the unfollowed user's posts from the timeline; when that step fails the \
            posts stay. The fix deletes the entry.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.timeline(schema) ?? Requirement.posts(schema) ?? Requirement.follows(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        return dataset.timeline.compactMap { entry in
            guard let p = derived.post(entry.post) else { return nil }
            let owner = derived.postOwners[p]
            if owner == entry.user { return nil }
            if let u = derived.user(entry.user), derived.followedKeys.sortedGroup(u, contains: owner) { return nil }
            guard let path = dataset.path(of: entry) else { return nil }
            let reason =
                derived.user(entry.user) == nil
                ? "\(dataset.key(entry.user)) does not exist"
                : "\(context.name(entry.user)) does not follow \(context.name(owner))"
            return finding(
                "\(context.name(entry.user))'s timeline shows \(context.name(owner))'s post \(dataset.key(entry.post)), but \(reason)",
                paths: [path], expected: JSONValue.null,
                actual: timelineEntryValue(
                    dataset, owner: entry.posterUID == noKey ? owner : entry.posterUID, post: entry.post),
                fix: [PatchEntry(path, .null)]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        // The stored rows no expected entry matches (from the join of both that `timeline-missing` reads too) whose
        // post exists and is not the timeline owner's own: an expected entry is the reader's own post or one by a
        // user they follow, so a row without one is by someone they do not follow, or the reader does not exist.
        let path = "t.path"
        return q.with(q.shared ? "" : q.timelineMembers, q.timelineGaps)
            + q.finding(
                paths: [path], expected: "'null'",
                actual: q.timelineValue("coalesce(t.poster, p.owner)", post: "t.post"),
                fix: q.fix([(path, "'null'")]),
                message: [
                    q.name("t.user"), "'''s timeline shows '", q.name("p.owner"), "'''s post '", "t.post", "', but '",
                    "CASE WHEN \(q.userExists("t.user")) THEN \(q.name("t.user")) || ' does not follow ' || \(q.name("p.owner")) "
                        + "ELSE t.user || ' does not exist' END",
                ]
            )
            + "\nFROM (SELECT g.t_path AS path, g.t_user AS user, g.t_post AS post, g.t_poster AS poster "
            + "FROM timeline_gaps g WHERE g.m_side IS NULL) t\n"
            + "JOIN live_posts p ON p.post = t.post\nWHERE p.owner IS DISTINCT FROM t.user"
    }
}
