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
        Requirement.posts(schema, field: \.posterUsername, "poster username copy", key: "poster_username") ?? Requirement.users(schema)
    }

    /// Copies and usernames that are there (`post-field` reports a missing copy); the subject is the post's index.
    func eachReading(in context: CheckContext, _ body: (CopyReading) -> Void) {
        let dataset = context.dataset, derived = context.derived
        guard dataset.schema.posts?.posterUsername != nil else { return }
        for (p, post) in dataset.posts.enumerated() where derived.post(post.key) == p {
            guard let copy = post.posterCopyUsername, let u = derived.user(post.owner), let username = dataset.users[u].username,
                copy != username
            else { continue }
            body(CopyReading(subject: p, copy: .string(copy), original: .string(username), record: post.key))
        }
    }

    func paths(of reading: CopyReading, in context: CheckContext) -> [String] {
        let dataset = context.dataset, post = dataset.posts[reading.subject]
        return [dataset.path(of: post, field: dataset.schema.posts!.posterUsername!),
                "\(dataset.path(ofUser: post.owner))/\(dataset.schema.users?.username?.description ?? "username")"]
    }

    func message(_ reading: CopyReading, in context: CheckContext) -> String {
        "post \(context.dataset.key(reading.record)) shows its poster as \"\(reading.copy.string!)\" but the user is now "
            + "\"\(reading.original.string!)\""
    }

    func sql(_ q: SQLContext) -> String {
        let users = q.schema.users!
        let path = q.path("p.path", field: q.schema.posts!.posterUsername!)
        let userPath = q.path(users.pattern, ["user": "p.owner"]) + " || " + q.text("/" + (users.username?.description ?? "username"))
        return q.with() + q.finding(
            paths: [path, userPath], expected: q.json("u.username"), actual: q.json("p.poster_username"),
            fix: q.fix([(path, q.json("u.username"))]),
            message: ["'post '", "p.post", "' shows its poster as \"'", "p.poster_username", "'\" but the user is now \"'", "u.username", "'\"'"]
        ) + "\nFROM live_posts p JOIN live_users u ON u.user = p.owner\n"
            + "WHERE p.poster_username IS NOT NULL AND u.username IS NOT NULL AND p.poster_username <> u.username"
    }
}

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
            body(CopyReading(
                subject: p, copy: .string(dataset.key(post.posterCopyUID)), original: .string(dataset.key(post.owner)), record: post.key))
        }
    }

    func paths(of reading: CopyReading, in context: CheckContext) -> [String] {
        [context.dataset.path(of: context.dataset.posts[reading.subject], field: context.dataset.schema.posts!.posterUID!)]
    }

    func message(_ reading: CopyReading, in context: CheckContext) -> String {
        "post \(context.dataset.key(reading.record)) belongs to \(reading.original.string!) but its poster copy names \(reading.copy.string!)"
    }

    func sql(_ q: SQLContext) -> String {
        let path = q.path("p.path", field: q.schema.posts!.posterUID!)
        return q.with() + q.finding(
            paths: [path], expected: q.json("p.owner"), actual: q.json("p.poster_uid"), fix: q.fix([(path, q.json("p.owner"))]),
            message: ["'post '", "p.post", "' belongs to '", "p.owner", "' but its poster copy names '", "p.poster_uid"]
        ) + "\nFROM live_posts p\nWHERE p.poster_uid IS NOT NULL AND p.owner IS NOT NULL AND p.poster_uid <> p.owner"
    }
}

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
                paths: [dataset.path(of: post)], key: post.owner == noKey ? nil : dataset.key(post.owner), record: post.key)
        }
    }

    func message(_ reference: BrokenReference, in context: CheckContext) -> String {
        "post \(context.dataset.key(reference.record)) belongs to \(reference.key ?? "no one"), who does not exist"
    }

    func sql(_ q: SQLContext) -> String {
        q.with() + q.finding(
            paths: ["p.path"], actual: q.json("coalesce(p.owner, 'no one')"), fix: q.fix([]),
            message: ["'post '", "p.post", "' belongs to '", "coalesce(p.owner, 'no one')", "', who does not exist'"]
        ) + "\nFROM live_posts p\nWHERE NOT \(q.userExists("p.owner"))"
    }
}

/// `post-field`: required fields are present with the right JSON type.
struct PostFieldRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "post-field", defaultSeverity: .error,
        summary: "Every post has its required fields, each of the right JSON type.",
        explanation: """
            Clients decode posts strictly (the seeds' `Post.init?(snapshot:)` returns nil when a field is \
            missing or of another type), so such a post silently disappears from every feed. There is no \
            mechanical fix: the right value is unknown.
            """,
        isMechanical: false
    )

    func missingRequirement(in schema: Schema) -> String? { Requirement.posts(schema) }

    func findings(in context: CheckContext) -> [Finding] {
        context.dataset.fieldProblems.map { problem in
            finding(
                problem.actual == "missing"
                    ? "\(problem.path) is missing (expected a \(problem.expected))"
                    : "\(problem.path) is a \(problem.actual), expected a \(problem.expected)",
                paths: [problem.path], expected: problem.expected, actual: problem.actual
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        // Every row's problems, as `Dataset.fieldProblems` holds those of every post read.
        q.with() + q.finding(
            paths: ["e.fp.path"], expected: q.json("e.fp.expected"), actual: q.json("e.fp.actual"), fix: q.fix([]),
            message: ["CASE WHEN e.fp.actual = 'missing' THEN e.fp.path || ' is missing (expected a ' || e.fp.expected || ')' "
                      + "ELSE e.fp.path || ' is a ' || e.fp.actual || ', expected a ' || e.fp.expected END"]
        ) + "\nFROM (SELECT \(q.dialect.explode("p.field_problems")) AS fp FROM \(q.table("posts")) p) e"
    }
}

/// `push-id-time`: a post's timestamp agrees with the time in its push ID, within a day.
struct PushIDTimeRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "push-id-time", defaultSeverity: .info,
        summary: "A post's timestamp agrees with the creation time in its push ID (within one day).",
        explanation: """
            Push IDs encode the client's clock at creation. A timestamp far from it means a client with a wrong \
            clock, a unit mix-up (seconds written as milliseconds) or a post copied from elsewhere; feeds sorted \
            by the timestamp then show it out of place.
            """,
        isMechanical: false
    )

    func missingRequirement(in schema: Schema) -> String? {
        guard let posts = schema.posts else { return "the schema has no posts relation ([posts] path)" }
        return posts.createdAt == nil ? "the schema's posts have no timestamp field ([posts] created_at)" : nil
    }

    /// "-3 days", "1 day": whole days, counted toward zero. A timestamp can be any finite number, far beyond
    /// what an `Int` holds in days, so those are written as the number they are ("1.7e+114 days").
    static func days(_ seconds: Double) -> String {
        let days = (seconds / 86_400).rounded(.towardZero)
        guard abs(days) < 1e12 else { return "\(days) days" }
        let whole = Int(days)
        return "\(whole) day\(whole.magnitude == 1 ? "" : "s")"
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        guard let field = dataset.schema.posts?.createdAt?.field else { return [] }
        return dataset.posts.enumerated().compactMap { p, post in
            guard derived.post(post.key) == p, let stored = post.createdAt,
                let pushed = PushID.time(of: dataset.key(post.key)), abs(stored - pushed) > 86_400
            else { return nil }
            return finding(
                "post \(dataset.key(post.key)) is timestamped \(Self.days(stored - pushed)) away from its push ID's time",
                paths: [dataset.path(of: post, field: field)], expected: pushed.rounded(), actual: stored.rounded()
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let path = q.path("p.path", field: q.schema.posts!.createdAt!.field)
        let gap = "(p.created_at - p.push_id_time) / 86400"
        let days = "(\(gap) - \(gap) % 1)"  // toward zero, as a double (Spark's floor is a bigint)
        let whole = "CAST(\(days) AS BIGINT)"
        return q.with() + q.finding(
            paths: [path], expected: q.wholeNumber("round(p.push_id_time)"), actual: q.wholeNumber("round(p.created_at)"), fix: q.fix([]),
            message: ["'post '", "p.post", "' is timestamped '",
                      "CASE WHEN abs(\(days)) < 1e12 THEN \(q.integer(whole)) || CASE WHEN abs(\(whole)) = 1 THEN ' day' ELSE ' days' END "
                        + "ELSE \(q.swiftDescription(days)) || ' days' END",
                      "' away from its push ID''s time'"]
        ) + "\nFROM live_posts p\nWHERE p.created_at IS NOT NULL AND p.push_id_time IS NOT NULL AND abs(p.created_at - p.push_id_time) > 86400"
    }
}
