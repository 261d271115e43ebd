import FanoutJSON

/// `post-unknown-poster`: every post's owner exists.
struct PostUnknownPosterRule: ReferenceRule {
    let descriptor = RuleDescriptor(
        id: "post-unknown-poster", defaultSeverity: .error,
        summary: "Every post's owner exists.",
        explanation: """
            Deleting an account without deleting its posts leaves posts whose poster cannot be shown. There is \
            no mechanical fix: decide whether to delete the posts or restore the user.
            """,
        isMechanical: false
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.posts(schema) ?? Requirement.users(schema)
    }

    /// Live posts whose owner is no existing user.
    func broken(in context: CheckContext) -> [BrokenReference] {
        let dataset = context.dataset, derived = context.derived
        return dataset.posts.enumerated().compactMap { p, post in
            guard derived.post(post.key) == p, derived.user(post.owner) == nil else { return nil }
            return BrokenReference(
                paths: [dataset.path(of: post)], key: post.owner == noKey ? nil : dataset.key(post.owner),
                record: post.key)
        }
    }

    func message(_ reference: BrokenReference, in context: CheckContext) -> String {
        "post \(context.dataset.key(reference.record)) belongs to \(reference.key ?? "no one"), who does not exist"
    }

    func sql(_ q: SQLContext) -> String {
        q.with()
            + q.finding(
                paths: ["p.path"], actual: q.json("coalesce(p.owner, 'no one')"), fix: q.fix([]),
                message: [
                    "'post '", "p.post", "' belongs to '", "coalesce(p.owner, 'no one')", "', who does not exist'",
                ]
            ) + "\nFROM live_posts p\nWHERE NOT \(q.userExists("p.owner"))"
    }
}
