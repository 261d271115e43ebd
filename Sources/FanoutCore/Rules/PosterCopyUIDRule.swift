import FanoutJSON

/// `poster-copy-uid`: the uid copied into a post equals the owner named by its path or owner field.
struct PosterCopyUIDRule: CopyRule {
    let descriptor = RuleDescriptor(
        id: "poster-copy-uid", defaultSeverity: .error,
        summary: "The poster uid copied into each post equals the post's owner.",
        explanation: """
            The app finds a post's like counter through the poster uid copy (`posts/{poster.uid}/{key}`); when \
            the copy names another user, likes update a counter at a path where the post does not exist. The \
            owner in the post's path is the source of truth: the fix rewrites the copy.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.posts(schema, field: \.posterUID, "poster uid copy", key: "poster_uid")
    }

    /// Posts with both a copy and an owner (keys compare as their ids: the same key is the same id); the subject
    /// is the post's index.
    func eachReading(in context: CheckContext, _ body: (CopyReading) -> Void) {
        let dataset = context.dataset, derived = context.derived
        guard dataset.schema.posts?.posterUID != nil else { return }
        for (p, post) in dataset.posts.enumerated() where derived.post(post.key) == p {
            guard post.posterCopyUID != noKey, post.owner != noKey, post.posterCopyUID != post.owner else { continue }
            body(
                CopyReading(
                    subject: p, copy: .string(dataset.key(post.posterCopyUID)),
                    original: .string(dataset.key(post.owner)), record: post.key))
        }
    }

    func paths(of reading: CopyReading, in context: CheckContext) -> [String] {
        [
            context.dataset.path(
                of: context.dataset.posts[reading.subject], field: context.dataset.schema.posts!.posterUID!)
        ]
    }

    func message(_ reading: CopyReading, in context: CheckContext) -> String {
        "post \(context.dataset.key(reading.record)) belongs to \(reading.original.string!) but its poster copy names \(reading.copy.string!)"
    }

    func sql(_ q: SQLContext) -> String {
        let path = q.path("p.path", field: q.schema.posts!.posterUID!)
        return q.with()
            + q.finding(
                paths: [path], expected: q.json("p.owner"), actual: q.json("p.poster_uid"),
                fix: q.fix([(path, q.json("p.owner"))]),
                message: [
                    "'post '", "p.post", "' belongs to '", "p.owner", "' but its poster copy names '", "p.poster_uid",
                ]
            )
            + "\nFROM live_posts p\nWHERE p.poster_uid IS NOT NULL AND p.owner IS NOT NULL AND p.poster_uid <> p.owner"
    }
}
