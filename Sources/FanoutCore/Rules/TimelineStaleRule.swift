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
        let path = "t.path"
        return q.with()
            + q.finding(
                paths: [path], expected: "'null'",
                actual: q.timelineValue("coalesce(t.poster, p.owner)", post: "t.post"),
                fix: q.fix([(path, "'null'")]),
                message: [
                    q.name("t.user"), "'''s timeline shows '", q.name("p.owner"), "'''s post '", "t.post", "', but '",
                    "CASE WHEN \(q.userExists("t.user")) THEN \(q.name("t.user")) || ' does not follow ' || \(q.name("p.owner")) "
                        + "ELSE t.user || ' does not exist' END",
                ]
            ) + "\nFROM \(q.storedTimeline) t JOIN live_posts p ON p.post = t.post\n"
            + "WHERE p.owner IS DISTINCT FROM t.user AND NOT (\(q.userExists("t.user")) AND EXISTS (SELECT 1 FROM \(q.followSource) f "
            + "WHERE f.user = t.user AND f.target = p.owner))"
    }
}
