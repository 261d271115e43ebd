import FanoutJSON

/// `like-count-mismatch`: the stored counter equals the number of distinct existing likers (a counter of likes
/// per post, docs/layouts.md "Declaring your app's copies").
struct LikeCountMismatchRule: CounterRule {
    let descriptor = RuleDescriptor(
        id: "like-count-mismatch", defaultSeverity: .error,
        summary: "A post's stored like counter equals the number of users who like it.",
        explanation: """
            Apps keep a like counter next to each post so that feeds can show counts without reading the like \
            set. Liking writes the like and increments the counter in two separate steps; when one of them fails, \
            or two clients race without a transaction, the counter drifts from the set. The like set is the source \
            of truth: the fix sets the counter to the number of distinct existing users in it. The finding's delta \
            is stored minus counted.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.posts(schema, field: \.likeCount, "like counter field", key: "like_count") ?? Requirement.likes(schema)
    }

    /// Non-negative counters; `like-count-negative` reports the others.
    func eachReading(in context: CheckContext, _ body: (CounterReading) -> Void) { likeCounters(in: context, { $0 >= 0 }, body) }

    func path(of reading: CounterReading, in context: CheckContext) -> String { likeCounterPath(reading, context) }

    func message(_ reading: CounterReading, in context: CheckContext) -> String {
        let stored = reading.stored.int64!, field = context.dataset.schema.posts!.likeCount!
        let post = context.dataset.posts[reading.subject]
        return "post \(context.dataset.key(post.key)) by \(context.name(post.owner)) stores \(field) \(stored) but "
            + (reading.counted == 1 ? "1 user likes it" : "\(reading.counted) users like it") + Self.delta(stored, reading.counted)
    }

    func sql(_ q: SQLContext) -> String {
        let field = q.schema.posts!.likeCount!
        let path = q.path("p.path", field: field), counted = "coalesce(c.n, 0)", delta = "(p.like_count - coalesce(c.n, 0))"
        return q.counterFindings(
            ctes: [q.likeCounts], from: "live_posts p LEFT JOIN like_counts c ON c.post = p.post", path: path,
            stored: "p.like_count", storedJSON: q.integer("p.like_count"), counted: counted,
            where: "p.like_count IS NOT NULL AND p.like_count >= 0",
            message: ["'post '", "p.post", "' by '", q.name("p.owner"), q.text(" stores \(field) "), q.integer("p.like_count"),
                      "' but '", "CASE WHEN \(counted) = 1 THEN '1 user likes it' ELSE \(q.integer(counted)) || ' users like it' END",
                      "' ('", "CASE WHEN \(delta) > 0 THEN '+' ELSE '' END", q.integer(delta), "')'"])
    }
}

/// The stored like counters of live posts whose integer value passes `keep`, each with the post's like count (the
/// reading's subject is the post's index).
private func likeCounters(in context: CheckContext, _ keep: (Int64) -> Bool, _ body: (CounterReading) -> Void) {
    let dataset = context.dataset, derived = context.derived
    guard dataset.schema.posts?.likeCount != nil else { return }
    for (p, post) in dataset.posts.enumerated() where derived.post(post.key) == p {
        guard let stored = post.storedLikeCount, keep(stored) else { continue }
        body(CounterReading(subject: p, stored: .number(JSONNumber(stored)), counted: derived.likeCount(post: p), group: post.key))
    }
}

/// The path of the like counter of the post a reading is about.
private func likeCounterPath(_ reading: CounterReading, _ context: CheckContext) -> String {
    context.dataset.path(of: context.dataset.posts[reading.subject], field: context.dataset.schema.posts!.likeCount!)
}

/// `like-count-negative`: the stored counter is not negative.
struct LikeCountNegativeRule: CounterRule {
    let descriptor = RuleDescriptor(
        id: "like-count-negative", defaultSeverity: .error,
        summary: "A post's stored like counter is zero or more.",
        explanation: """
            A negative counter comes from decrementing without a guard, typically an unlike processed twice or \
            an unlike whose like never reached the counter. The fix sets the counter to the number of distinct \
            existing users in the like set.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.posts(schema, field: \.likeCount, "like counter field", key: "like_count")
    }

    func eachReading(in context: CheckContext, _ body: (CounterReading) -> Void) { likeCounters(in: context, { $0 < 0 }, body) }

    func path(of reading: CounterReading, in context: CheckContext) -> String { likeCounterPath(reading, context) }

    func message(_ reading: CounterReading, in context: CheckContext) -> String {
        let post = context.dataset.posts[reading.subject]
        return "post \(context.dataset.key(post.key)) by \(context.name(post.owner)) stores a negative "
            + "\(context.dataset.schema.posts!.likeCount!) (\(reading.stored.int64!))"
    }

    func sql(_ q: SQLContext) -> String {
        let field = q.schema.posts!.likeCount!
        let path = q.path("p.path", field: field)
        return q.counterFindings(
            ctes: [q.likeCounts], from: "live_posts p LEFT JOIN like_counts c ON c.post = p.post", path: path,
            stored: "p.like_count", storedJSON: q.integer("p.like_count"), counted: "coalesce(c.n, 0)", where: "p.like_count < 0",
            message: ["'post '", "p.post", "' by '", q.name("p.owner"), q.text(" stores a negative \(field) ("),
                      q.integer("p.like_count"), "')'"])
    }
}

/// `like-unknown-user`: every liker exists.
struct LikeUnknownUserRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "like-unknown-user", defaultSeverity: .error,
        summary: "Every user in a like set exists.",
        explanation: """
            Deleting an account rarely deletes the account's likes, which are stored under each liked post. Such \
            likes are not counted. The fix deletes the like.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.likes(schema) ?? Requirement.users(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        return dataset.likes.compactMap { like in
            guard derived.user(like.user) == nil, derived.post(like.post) != nil,
                let path = dataset.path(ofLike: like)
            else { return nil }
            return finding(
                "user \(dataset.key(like.user)), who does not exist, likes post \(dataset.key(like.post))",
                paths: [path], expected: JSONValue.null, actual: true, fix: [PatchEntry(path, .null)]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let path = q.path(q.schema.likes!.pattern, ["post": "l.post", "user": "l.user", "id": "l.id"])
        return q.with() + q.finding(
            paths: [path], expected: "'null'", actual: "'true'", fix: q.fix([(path, "'null'")]),
            message: ["'user '", "l.user", "', who does not exist, likes post '", "l.post"]
        ) + "\nFROM \(q.table("likes")) l\nWHERE NOT \(q.userExists("l.user")) AND \(q.postExists("l.post"))"
    }
}

/// `like-unknown-post`: every liked post exists.
struct LikeUnknownPostRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "like-unknown-post", defaultSeverity: .error,
        summary: "Every post in the like sets exists.",
        explanation: """
            Deleting a post rarely deletes its like set, which lives in another part of the tree. The orphaned \
            likes are invisible to users but still cost storage and reads. The fix deletes them.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.likes(schema) ?? Requirement.posts(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        return dataset.likes.compactMap { like in
            guard derived.post(like.post) == nil, let path = dataset.path(ofLike: like) else { return nil }
            return finding(
                "\(context.name(like.user)) likes post \(dataset.key(like.post)), which does not exist",
                paths: [path], expected: JSONValue.null, actual: true, fix: [PatchEntry(path, .null)]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let path = q.path(q.schema.likes!.pattern, ["post": "l.post", "user": "l.user", "id": "l.id"])
        return q.with() + q.finding(
            paths: [path], expected: "'null'", actual: "'true'", fix: q.fix([(path, "'null'")]),
            message: [q.name("l.user"), "' likes post '", "l.post", "', which does not exist'"]
        ) + "\nFROM \(q.table("likes")) l\nWHERE NOT \(q.postExists("l.post"))"
    }
}
