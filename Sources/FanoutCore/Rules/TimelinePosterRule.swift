import FanoutJSON

/// `timeline-poster`: each entry's poster uid is the post's owner.
struct TimelinePosterRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "timeline-poster", defaultSeverity: .error,
        summary: "Each stored timeline entry's poster uid is the post's owner.",
        explanation: """
            Clients read a timeline entry's post at `posts/{poster_uid}/{key}`; a wrong poster uid makes the \
            post unreadable from the timeline. The fix rewrites the poster uid.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        guard let timeline = schema.timeline else {
            return "the schema has no stored timeline relation ([timeline] path)"
        }
        if timeline.posterUID == nil { return "the schema's timeline entries have no poster field ([timeline] poster)" }
        return Requirement.posts(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        guard let field = dataset.schema.timeline?.posterUID else { return [] }
        return dataset.timeline.compactMap { entry in
            guard let p = derived.post(entry.post) else { return nil }
            let owner = derived.postOwners[p]
            guard owner != noKey, entry.posterUID != owner,
                let entryPath = dataset.path(of: entry)
            else { return nil }
            let path = "\(entryPath)/\(field)"
            let actual: JSONValue = entry.posterUID == noKey ? .null : .string(dataset.key(entry.posterUID))
            return finding(
                "\(context.name(entry.user))'s timeline entry for post \(dataset.key(entry.post)) names "
                    + (entry.posterUID == noKey ? "no poster" : dataset.key(entry.posterUID))
                    + " as its poster, but the post belongs to \(dataset.key(owner))",
                paths: [path], expected: dataset.key(owner), actual: actual,
                fix: [PatchEntry(path, .string(dataset.key(owner)))]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let timeline = q.schema.timeline!
        let path = q.path("t.path", field: timeline.posterUID!)
        return q.with()
            + q.finding(
                paths: [path], expected: q.json("p.owner"),
                actual: "CASE WHEN t.poster IS NULL THEN 'null' ELSE \(q.json("t.poster")) END",
                fix: q.fix([(path, q.json("p.owner"))]),
                message: [
                    q.name("t.user"), "'''s timeline entry for post '", "t.post", "' names '",
                    "coalesce(t.poster, 'no poster')",
                    "' as its poster, but the post belongs to '", "p.owner",
                ]
            ) + "\nFROM \(q.storedTimeline) t JOIN live_posts p ON p.post = t.post\n"
            + "WHERE p.owner IS NOT NULL AND t.poster IS DISTINCT FROM p.owner"
    }
}
