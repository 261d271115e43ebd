import FanoutJSON

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

    func eachReading(in context: CheckContext, _ body: (CounterReading) -> Void) {
        likeCounters(in: context, { $0 < 0 }, body)
    }

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
            stored: "p.like_count", storedJSON: q.integer("p.like_count"), counted: "coalesce(c.n, 0)",
            where: "p.like_count < 0",
            message: [
                "'post '", "p.post", "' by '", q.name("p.owner"), q.text(" stores a negative \(field) ("),
                q.integer("p.like_count"), "')'",
            ])
    }
}
