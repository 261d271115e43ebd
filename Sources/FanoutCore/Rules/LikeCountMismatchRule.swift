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
        Requirement.posts(schema, field: \.likeCount, "like counter field", key: "like_count")
            ?? Requirement.likes(schema)
    }

    /// Non-negative counters; `like-count-negative` reports the others.
    func eachReading(in context: CheckContext, _ body: (CounterReading) -> Void) {
        likeCounters(in: context, { $0 >= 0 }, body)
    }

    func path(of reading: CounterReading, in context: CheckContext) -> String { likeCounterPath(reading, context) }

    func message(_ reading: CounterReading, in context: CheckContext) -> String {
        let stored = reading.stored.int64!, field = context.dataset.schema.posts!.likeCount!
        let post = context.dataset.posts[reading.subject]
        return "post \(context.dataset.key(post.key)) by \(context.name(post.owner)) stores \(field) \(stored) but "
            + (reading.counted == 1 ? "1 user likes it" : "\(reading.counted) users like it")
            + Self.delta(stored, reading.counted)
    }

    func sql(_ q: SQLContext) -> String {
        let field = q.schema.posts!.likeCount!
        let path = q.path("p.path", field: field), counted = "coalesce(c.n, 0)",
            delta = "(p.like_count - coalesce(c.n, 0))"
        return q.counterFindings(
            ctes: [q.likeCounts], from: "live_posts p LEFT JOIN like_counts c ON c.post = p.post", path: path,
            stored: "p.like_count", storedJSON: q.integer("p.like_count"), counted: counted,
            where: "p.like_count IS NOT NULL AND p.like_count >= 0",
            message: [
                "'post '", "p.post", "' by '", q.name("p.owner"), q.text(" stores \(field) "),
                q.integer("p.like_count"),
                "' but '",
                "CASE WHEN \(counted) = 1 THEN '1 user likes it' ELSE \(q.integer(counted)) || ' users like it' END",
                "' ('", "CASE WHEN \(delta) > 0 THEN '+' ELSE '' END", q.integer(delta), "')'",
            ])
    }
}
