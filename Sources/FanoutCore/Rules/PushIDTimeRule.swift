import FanoutJSON

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
        return q.with()
            + q.finding(
                paths: [path], expected: q.wholeNumber("round(p.push_id_time)"),
                actual: q.wholeNumber("round(p.created_at)"), fix: q.fix([]),
                message: [
                    "'post '", "p.post", "' is timestamped '",
                    "CASE WHEN abs(\(days)) < 1e12 THEN \(q.integer(whole)) || CASE WHEN abs(\(whole)) = 1 THEN ' day' ELSE ' days' END "
                        + "ELSE \(q.swiftDescription(days)) || ' days' END",
                    "' away from its push ID''s time'",
                ]
            )
            + "\nFROM live_posts p\nWHERE p.created_at IS NOT NULL AND p.push_id_time IS NOT NULL AND abs(p.created_at - p.push_id_time) > 86400"
    }
}
