import FanoutJSON

/// `timeline-unknown-post`: every stored entry points to an existing post.
struct TimelineUnknownPostRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "timeline-unknown-post", defaultSeverity: .error,
        summary: "Every stored timeline entry points to an existing post.",
        explanation: """
            Deleting a post must also delete its entry from every follower's timeline; when it does not, clients \
            read a post that is gone and show an empty cell or crash. The fix deletes the entry.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.timeline(schema) ?? Requirement.posts(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        return dataset.timeline.compactMap { entry in
            guard derived.post(entry.post) == nil, let path = dataset.path(of: entry) else {
                return nil
            }
            return finding(
                "\(context.name(entry.user))'s timeline points to post \(dataset.key(entry.post)), which does not exist",
                paths: [path], expected: JSONValue.null,
                actual: entry.posterUID == noKey
                    ? dataset.schema.edgeValue.json
                    : timelineEntryValue(dataset, owner: entry.posterUID, post: entry.post),
                fix: [PatchEntry(path, .null)]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let path = "t.path"
        return q.with()
            + q.finding(
                paths: [path], expected: "'null'",
                actual:
                    "CASE WHEN t.poster IS NULL THEN \(q.edgeValue) ELSE \(q.timelineValue("t.poster", post: "t.post")) END",
                fix: q.fix([(path, "'null'")]),
                message: [q.name("t.user"), "'''s timeline points to post '", "t.post", "', which does not exist'"]
            ) + "\nFROM \(q.storedTimeline) t\nWHERE NOT \(q.postExists("t.post"))"
    }
}
