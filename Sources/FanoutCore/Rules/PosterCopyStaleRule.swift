import FanoutJSON

/// `poster-copy-stale`: the username copied into a post equals the poster's username.
struct PosterCopyStaleRule: CopyRule {
    let descriptor = RuleDescriptor(
        id: "poster-copy-stale", defaultSeverity: .warning,
        summary: "The poster's username copied into each post equals the user's current username.",
        explanation: """
            Posts carry a copy of their poster's username so that feeds need not read every poster. Renaming a \
            user updates the user node but rarely every post, so old posts keep showing the old name. The users \
            relation is the source of truth: the fix copies the current username into the post.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.posts(schema, field: \.posterUsername, "poster username copy", key: "poster_username")
            ?? Requirement.users(schema)
    }

    /// Copies and usernames that are there (`post-field` reports a missing copy); the subject is the post's index.
    func eachReading(in context: CheckContext, _ body: (CopyReading) -> Void) {
        let dataset = context.dataset, derived = context.derived
        guard dataset.schema.posts?.posterUsername != nil else { return }
        for (p, post) in dataset.posts.enumerated() where derived.post(post.key) == p {
            guard let copy = post.posterCopyUsername, let u = derived.user(post.owner),
                let username = dataset.users[u].username,
                copy != username
            else { continue }
            body(CopyReading(subject: p, copy: .string(copy), original: .string(username), record: post.key))
        }
    }

    func paths(of reading: CopyReading, in context: CheckContext) -> [String] {
        let dataset = context.dataset, post = dataset.posts[reading.subject]
        return [
            dataset.path(of: post, field: dataset.schema.posts!.posterUsername!),
            "\(dataset.path(ofUser: post.owner))/\(dataset.schema.users?.username?.description ?? "username")",
        ]
    }

    func message(_ reading: CopyReading, in context: CheckContext) -> String {
        "post \(context.dataset.key(reading.record)) shows its poster as \"\(reading.copy.string!)\" but the user is now "
            + "\"\(reading.original.string!)\""
    }

    func sql(_ q: SQLContext) -> String {
        let users = q.schema.users!
        let path = q.path("p.path", field: q.schema.posts!.posterUsername!)
        let userPath =
            q.path(users.pattern, ["user": "p.owner"]) + " || "
            + q.text("/" + (users.username?.description ?? "username"))
        return q.with()
            + q.finding(
                paths: [path, userPath], expected: q.json("u.username"), actual: q.json("p.poster_username"),
                fix: q.fix([(path, q.json("u.username"))]),
                message: [
                    "'post '", "p.post", "' shows its poster as \"'", "p.poster_username",
                    "'\" but the user is now \"'", "u.username", "'\"'",
                ]
            ) + "\nFROM live_posts p JOIN live_users u ON u.user = p.owner\n"
            + "WHERE p.poster_username IS NOT NULL AND u.username IS NOT NULL AND p.poster_username <> u.username"
    }
}
