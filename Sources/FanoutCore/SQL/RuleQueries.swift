/// One rule's query, as `fanout sql` prints it.
public struct RuleQuery: Sendable, Equatable {
    /// The rule's id.
    public let rule: String
    /// The severity its rows carry.
    public let severity: Severity
    /// The query, returning finding rows (``SQLContext``).
    public let sql: String
}

/// A query of the derived data (docs/derived-data.md), as `fanout sql --derived` prints it.
public struct DerivedQuery: Sendable, Equatable {
    /// The output table's name: `timelines`, `post_stats` or `likers`.
    public let name: String
    /// What each row is, for the printed query's comment.
    public let summary: String
    /// The query.
    public let sql: String
}

/// The rule catalogue and the derivation as SQL over the tables of `fanout tables` (docs/tables.md). Each rule's query
/// is beside its Swift rule (`ConsistencyRule.sql`).
public enum RuleQueries {
    /// The queries of the rules `configuration` runs on `schema`, in catalog order, and the rules skipped with
    /// the reasons `check` gives.
    /// `tablePrefix` starts the tables' names (`fanout sql --diff` reads `old_users` and `new_users`). With
    /// `shared`, the queries read the relations of `sharedViews` by name instead of deriving them each.
    public static func queries(
        schema: Schema, configuration: AuditConfiguration = AuditConfiguration(), dialect: SQLDialect,
        tablePrefix: String = "",
        shared: Bool = false
    ) -> (queries: [RuleQuery], skipped: [SkippedRule]) {
        let (ran, skipped, _) = Audit.plan(schema, configuration)
        let queries = ran.map { rule, severity in
            let id = rule.descriptor.id
            let context = SQLContext(
                schema: schema, dialect: dialect, rule: id, severity: severity, tablePrefix: tablePrefix, shared: shared
            )
            return RuleQuery(rule: id, severity: severity, sql: rule.sql(context))
        }
        return (queries, skipped)
    }

    /// The relations that the rules' queries read when they are made with `shared` (`fanout sql --shared-views`),
    /// in the order to make them (each may read those before it): the live users (the last row of each uid), the
    /// live posts, and each post's number of distinct existing likers. A runner makes each once per run (a cached
    /// Spark view, a DuckDB temporary table), where every query deriving them again repeated the same sorts and
    /// aggregations (docs/performance.md "The rules on Spark and DuckDB"). On Spark also the suspect timelines and
    /// their gaps (`SQLContext.timelineSuspectsQuery`, `SQLContext.timelineGapsQuery`) where one of the four timeline
    /// rules that read them is among `rules` (the rules run; when nil, those `check` runs by default), and the posts
    /// whose likes the like rules read (`SQLContext.likeSuspectsQuery`) where one of those runs, and each mirror
    /// rule's suspects where it runs.
    public static func sharedViews(schema: Schema, dialect: SQLDialect, rules: [String]? = nil) -> [DerivedQuery] {
        let q = SQLContext(schema: schema, dialect: dialect, rule: "", severity: .info, shared: true)
        let ran = Set(rules ?? Audit.plan(schema, AuditConfiguration()).ran.map(\.rule.descriptor.id))
        let runs = { (ids: Set<String>) in !ids.isDisjoint(with: ran) }
        let likeSuspects =
            q.sharesLikeSuspects && runs(["like-unknown-user", "like-unknown-post", "like-duplicate"])
            ? [
                DerivedQuery(
                    name: "like_suspects", summary: "the liked posts where a like rule may report a like",
                    sql: q.likeSuspectsQuery)
            ] : []
        // Each mirror rule's suspects (`MirrorRule.sqlSuspectsView`) where it runs.
        let mirrors =
            dialect == .spark
            ? RuleCatalog.rules(for: schema).compactMap { rule -> DerivedQuery? in
                guard let mirror = rule as? any MirrorRule, ran.contains(rule.descriptor.id) else { return nil }
                return mirror.sqlSuspectsView(q)
            } : []
        let timelineRules: Set = ["timeline-missing", "timeline-stale", "timeline-unknown-post", "timeline-poster"]
        let gaps =
            q.sharesTimelineGaps && runs(timelineRules)
            ? [
                DerivedQuery(
                    name: "timeline_suspects",
                    summary: "the readers whose timeline's fingerprint differs from its members'",
                    sql: q.timelineSuspectsQuery),
                DerivedQuery(
                    name: "timeline_gaps",
                    summary: "the members without a stored entry and the entries no member accounts for",
                    sql: q.timelineGapsQuery),
            ] : []
        return [
            DerivedQuery(name: "live_users", summary: "the last row of each uid", sql: q.liveUsersQuery),
            DerivedQuery(name: "live_posts", summary: "the last row of each post key", sql: q.livePostsQuery),
        ]
            + (schema.likes == nil
                ? []
                : [
                    DerivedQuery(
                        name: "like_counts",
                        summary: "post, n, most: the distinct existing users in each like set, the most likes by one",
                        sql: q.likeCountsQuery)
                ] + likeSuspects) + mirrors + gaps
    }

    /// The derived data: every existing user's timeline (`reader`, `post`, `rank` from 1, newest first, equal
    /// times by post key), each existing post's owner, time and like count, and its likers in the order pages
    /// list them (by username, else display name, else uid; then uid).
    public static func derived(schema: Schema, dialect: SQLDialect) -> [DerivedQuery] {
        let q = SQLContext(schema: schema, dialect: dialect, rule: "", severity: .info)
        let time = "coalesce(p.created_at, p.push_id_time)"
        return [
            DerivedQuery(
                name: "timelines", summary: "reader, post, rank: each user's timeline, newest first",
                sql: q.with(q.timelineMembers) + """
                    SELECT m.reader AS reader, m.post AS post,
                      row_number() OVER (PARTITION BY m.reader ORDER BY \(time) DESC NULLS LAST, m.post ASC) AS rank
                    FROM members m JOIN live_posts p ON p.post = m.post
                    ORDER BY reader, rank
                    """),
            DerivedQuery(
                name: "post_stats", summary: "post, owner, time, like_count: each post's time and like count",
                sql: q.with(q.likeCounts) + """
                    SELECT p.post AS post, p.owner AS owner, \(time) AS time, coalesce(c.n, 0) AS like_count
                    FROM live_posts p LEFT JOIN like_counts c ON c.post = p.post
                    ORDER BY post
                    """),
            DerivedQuery(
                name: "likers", summary: "post, user, rank: each post's likers in the order pages list them",
                sql: q.with(
                    """
                    liked AS (
                      SELECT DISTINCT l.post AS post, l.user AS user FROM \(q.table("likes")) l
                      WHERE \(q.userExists("l.user")) AND \(q.postExists("l.post"))
                    )
                    """) + """
                        SELECT k.post AS post, k.user AS user,
                          row_number() OVER (PARTITION BY k.post ORDER BY coalesce(u.username, u.name, u.user), k.user) AS rank
                        FROM liked k JOIN live_users u ON u.user = k.user
                        ORDER BY post, rank
                        """),
        ]
    }
}
