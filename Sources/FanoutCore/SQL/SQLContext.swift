import FanoutJSON

/// What a rule's query is written with: the schema (where each relation's paths are, which relations exist), the
/// dialect, and the rule's id and severity, which every finding row carries (docs/tables.md).
///
/// A query reads the tables of `fanout tables` under their own names and returns finding rows with the JSON
/// report's fields: `rule`, `severity`, `paths` (a list of strings), `expected` and `actual` (JSON text, or
/// null where the report has null), `fix` (a list of `path`, `value` with `value` as JSON text) and `message`,
/// equal to the Swift rule's. The tables keep every row, so queries take the last of a key stored twice
/// (`live_users`, `live_posts`, by `seq`), as `check` does.
package struct SQLContext: Sendable {
    /// Where the export's relations are.
    package let schema: Schema
    /// The engine.
    package let dialect: SQLDialect
    /// The rule's id.
    package let rule: String
    /// The rule's severity in this run.
    package let severity: Severity
    /// What the tables' names start with where one query reads two exports' tables (`fanout sql --diff`: `old_`
    /// and `new_`, docs/diff-and-history.md); empty otherwise.
    package let tablePrefix: String
    /// Whether the relations every query derives (`live_users`, `live_posts`, `like_counts`:
    /// `RuleQueries.sharedViews`) are views made once per run, which the queries read by name, instead of common
    /// tables of each query (`fanout sql --shared-views`).
    package let shared: Bool

    package init(
        schema: Schema, dialect: SQLDialect, rule: String, severity: Severity, tablePrefix: String = "",
        shared: Bool = false
    ) {
        self.schema = schema
        self.dialect = dialect
        self.rule = rule
        self.severity = severity
        self.tablePrefix = tablePrefix
        self.shared = shared
    }

    // MARK: tables

    /// A table of `fanout tables`, quoted.
    package func table(_ name: String) -> String { dialect.table(tablePrefix + name) }

    /// The common tables every query may use: the live users (the last row of each uid) with the name messages
    /// show, the live posts, and `extra` (`name AS (…)` clauses).
    package func with(_ extra: String...) -> String { with(extra) }

    /// `with` of a list of clauses (an empty one is left out). With `shared` views, only `extra`.
    package func with(_ extra: [String]) -> String {
        let clauses = (shared ? [] : [liveUsers, livePosts]) + extra.filter { !$0.isEmpty }
        return clauses.isEmpty ? "" : "WITH " + clauses.joined(separator: ",\n") + "\n"
    }

    /// `live_users AS (…)`: the last row of each uid.
    var liveUsers: String { "live_users AS (\n  \(liveUsersQuery)\n)" }

    /// `live_posts AS (…)`: the last row of each post key.
    var livePosts: String { "live_posts AS (\n  \(livePostsQuery)\n)" }

    var liveUsersQuery: String {
        "SELECT u.* FROM \(table("users")) u QUALIFY row_number() OVER (PARTITION BY u.user ORDER BY u.seq DESC) = 1"
    }

    var livePostsQuery: String {
        "SELECT p.* FROM \(table("posts")) p QUALIFY row_number() OVER (PARTITION BY p.post ORDER BY p.seq DESC) = 1"
    }

    /// The follows the timelines are made from: `following`, the source of truth, else `followers`
    /// (docs/derived-data.md).
    package var followSource: String { table(schema.following != nil ? "following" : "followers") }

    /// `members AS (reader, post, owner)`: the posts each existing user's timeline holds (their own posts and
    /// those of the users they follow), each once. Each reader's sources (the reader, and each user they follow,
    /// once) are joined to the sources' posts: a reader is not among those they follow here, so no row comes twice,
    /// where a union's distinct of every reader's posts sorted or hashed them all. (A union under the join, not
    /// under the query's messages: Spark's optimizer failed on a projection with subqueries pushed through a union
    /// inside the job's union, `key not found`.)
    package var timelineMembers: String { members(byReader: false) }

    /// `timelineMembers`, on Spark with each reader's sources distributed by reader before the join to their posts (a
    /// `REPARTITION` hint on the (reader, source) pairs, a fourth as many rows as the members), so that
    /// `timeline-missing`'s anti join, whose other side is the timeline distributed by user (`timelineByUser`),
    /// shuffles the members no more: a partitioning by the reader alone satisfies the join on (reader, post) where the
    /// session allows it (`spark.sql.requireAllClusterKeysForCoPartition` false, which `spark/fanout_check.py` sets in
    /// local mode; else Spark shuffles both sides by (reader, post) as before). DuckDB's query is `timelineMembers`'
    /// (docs/performance.md "The rules on Spark and DuckDB").
    package var timelineMembersByReader: String { members(byReader: dialect == .spark) }

    /// The timeline's `user` and `post`, on Spark distributed by user (see `timelineMembersByReader`).
    package var timelineByUser: String {
        dialect == .spark
            ? "(SELECT /*+ REPARTITION(user) */ user, post FROM \(table("timeline")))" : table("timeline")
    }

    private func members(byReader: Bool) -> String {
        "members AS (\n  \(membersQuery(byReader: byReader).replacing("\n", with: "\n  "))\n)"
    }

    /// `suspectsOnly`: the readers of `timeline_suspects` alone (`timelineGapsQuery`).
    private func membersQuery(byReader: Bool, suspectsOnly: Bool = false) -> String {
        let (open, close) = byReader ? ("(SELECT /*+ REPARTITION(reader) */ * FROM (", "))") : ("(", ")")
        let only = suspectsOnly ? " LEFT SEMI JOIN timeline_suspects s ON s.reader <=> r.reader" : ""
        return """
            SELECT r.reader AS reader, p.post AS post, p.owner AS owner
            FROM \(open)
              \(readerSources().replacing("\n", with: "\n  "))
            \(close) r\(only) JOIN live_posts p ON p.owner = r.source
            """
    }

    /// `(reader, source)`: each existing user's timeline's sources, the reader and each user they follow, once
    /// (`distinct`; else a follow stored twice gives its pair twice).
    private func readerSources(distinct: Bool = true) -> String {
        """
        SELECT u.user AS reader, u.user AS source FROM live_users u
        UNION ALL
        SELECT \(distinct ? "DISTINCT " : "")f.user AS reader, f.target AS source
        FROM \(followSource) f JOIN live_users u ON u.user = f.user WHERE f.target <> f.user
        """
    }

    /// Whether the timeline rules read the shared view `timeline_gaps` (`timelineGapsQuery`): on Spark, with shared
    /// views, where the schema has a stored timeline and posts (what `timeline-missing` needs; the others need no
    /// more of the view).
    package var sharesTimelineGaps: Bool {
        shared && dialect == .spark && schema.timeline != nil && schema.posts != nil
    }

    /// `timeline_suspects` (`reader`): the readers whose timeline may differ from what it should hold, by a
    /// fingerprint of each side (`fingerprint(of:)`: the number of entries and two sums of bits of a hash of each
    /// entry's (post, poster)), for the members from each source's posts summed over the reader's
    /// sources (the 7.3 M members of the 1.1 GB export are never made), for the stored timeline from one scan
    /// aggregated by user. A reader whose fingerprints are equal holds exactly its members, each once and with the
    /// right poster, but for two different sets whose count and 62 bits of sums agree (about 2⁻⁶² a drifted
    /// timeline); one missing from either side, or whose fingerprints differ, is a suspect. Where entries carry no
    /// poster copy, the post alone is hashed. The sources are not made distinct here (a follow stored twice counts
    /// its posts twice), which saved a third of the view's time: such a reader's fingerprints differ unless its
    /// stored timeline holds the same entries as often, right posters and all, where `timeline_gaps` would find
    /// nothing either (docs/performance.md "The rules on Spark and DuckDB").
    var timelineSuspectsQuery: String {
        let entry = { (post: String, poster: String) in
            schema.timeline?.posterUID != nil ? "\(post), \(poster)" : post
        }
        let sums = { (post: String, poster: String) in fingerprint(of: entry(post, poster)) }
        let expected = """
            SELECT r.reader AS reader, sum(c.n) AS n, sum(c.h1) AS h1, sum(c.h2) AS h2
            FROM (
              \(readerSources(distinct: false).replacing("\n", with: "\n  "))
            ) r
            JOIN (SELECT owner, \(sums("post", "owner")) FROM live_posts GROUP BY owner) c ON c.owner = r.source
            GROUP BY r.reader
            """
        let stored = "SELECT user AS reader, \(sums("post", "poster")) FROM \(table("timeline")) GROUP BY user"
        return differingFingerprints("reader", expected, stored)
    }

    /// A fingerprint of a set of rows, as the aggregations `n` (their number), `h1` and `h2`: two sums of 31 bits
    /// of the 64-bit hash of each row's `columns` (Spark's `xxhash64`), so that no sum of up to 2³²
    /// rows overflows a `BIGINT`. Two sets with equal fingerprints are equal but for about 2⁻⁶² of the pairs that
    /// differ (`timelineSuspectsQuery`, `mirrorSuspects`).
    package func fingerprint(of columns: String) -> String {
        "count(*) AS n, sum(xxhash64(\(columns)) & 2147483647) AS h1, sum(shiftright(xxhash64(\(columns)), 33)) AS h2"
    }

    /// The values of `key` that one of the relations `one` and `other` (a row per `key`, with its `fingerprint(of:)`
    /// `n`, `h1` and `h2`) lacks, or whose fingerprints differ between them: the suspects (`timelineSuspectsQuery`,
    /// `mirrorSuspects`).
    func differingFingerprints(_ key: String, _ one: String, _ other: String) -> String {
        """
        SELECT coalesce(x.\(key), y.\(key)) AS \(key)
        FROM (
          \(one.replacing("\n", with: "\n  "))
        ) x
        FULL OUTER JOIN (\(other.replacing("\n", with: "\n  "))) y ON y.\(key) = x.\(key)
        WHERE x.\(key) IS NULL OR y.\(key) IS NULL OR x.n <> y.n OR x.h1 <> y.h1 OR x.h2 <> y.h2
        """
    }

    /// `timeline_gaps`: the members of the suspect readers' timelines (`timeline_suspects`) and their stored entries in
    /// one full outer join on (reader, post), keeping only the members without an entry (`listed` null:
    /// `timeline-missing`'s findings) and the entries without a member or, where entries carry a poster copy, whose
    /// poster is not the member's owner (`listed` true), which are the only entries `timeline-stale`,
    /// `timeline-unknown-post` and `timeline-poster` can report: an entry for an existing post by its reader or by
    /// someone the reader follows is a member, and a member's owner is its post's. Empty on a consistent export, and
    /// made of the suspects' rows alone, because scanning, probing and joining every entry of the timeline was most of
    /// the Spark job (docs/performance.md "The rules on Spark and DuckDB"). Written without a common table: Spark did
    /// not match a cached view holding one inside a query with common tables of its own, such as the rules' union, and
    /// computed the view again.
    var timelineGapsQuery: String {
        let posterDiffers = schema.timeline?.posterUID != nil ? " OR t.poster IS DISTINCT FROM m.owner" : ""
        return """
            SELECT m.reader AS reader, m.post AS member_post, m.owner AS owner, t.user AS user, t.post AS post, \
            t.poster AS poster, t.path AS path, t.listed AS listed
            FROM (SELECT reader, post, owner, true AS member FROM (
              \(membersQuery(byReader: false, suspectsOnly: true).replacing("\n", with: "\n  "))
            )) m
            FULL OUTER JOIN (
              SELECT e.user, e.post, e.poster, e.path, true AS listed
              FROM \(table("timeline")) e LEFT SEMI JOIN timeline_suspects s ON s.reader <=> e.user
            ) t
              ON t.user = m.reader AND t.post = m.post
            WHERE t.listed IS NULL OR m.member IS NULL\(posterDiffers)
            """
    }

    /// The stored timeline entries that `timeline-stale`, `timeline-unknown-post` and `timeline-poster` read (`user`,
    /// `post`, `poster`, `path`): those of `timeline_gaps` where it is shared, else the whole table.
    package var storedTimeline: String {
        sharesTimelineGaps
            ? "(SELECT user, post, poster, path FROM timeline_gaps WHERE listed)" : table("timeline")
    }

    /// `like_counts AS (post, n, most)`: the number of distinct existing users in each like set (`n`, 0 where
    /// every liker is unknown), and the most times one user (or the missing user) is in it (`most`: above 1 where
    /// `like-duplicate` has a finding). One aggregation of the likes by (post, user) gives both, where
    /// `like-duplicate` grouped every like again (docs/performance.md "The rules on Spark and DuckDB"). Empty where
    /// it is a shared view.
    package var likeCounts: String {
        shared ? "" : "like_counts AS (\n  \(likeCountsQuery.replacing("\n", with: "\n  "))\n)"
    }

    /// On Spark the likes are distributed by post before the first aggregation (a `REPARTITION` hint), so that
    /// both aggregations (by post and user, then by post) and the broadcast join between them share that one
    /// shuffle, where Spark shuffled the likes by (post, user) and then the pairs again by post (docs/performance.md
    /// "The rules on Spark and DuckDB"). DuckDB's query is unchanged.
    /// On Spark also `strangers`: the like set's users who do not exist (`like_suspects`).
    var likeCountsQuery: String {
        let likes = dialect == .spark ? "(SELECT /*+ REPARTITION(post) */ * FROM \(table("likes")))" : table("likes")
        let strangers = dialect == .spark ? ", count(*) - count(u.user) AS strangers" : ""
        return """
            SELECT c.post AS post, count(u.user) AS n, max(c.times) AS most\(strangers)
            FROM (SELECT l.post AS post, l.user AS user, count(*) AS times FROM \(likes) l GROUP BY l.post, l.user) c
            LEFT JOIN live_users u ON u.user = c.user
            GROUP BY c.post
            """
    }

    /// Whether the like rules read only the likes of `like_suspects`' posts (Spark, with shared views).
    package var sharesLikeSuspects: Bool {
        shared && dialect == .spark && schema.likes != nil
    }

    /// `like_suspects` (`post`): the liked posts where `like-unknown-user`, `like-unknown-post` or `like-duplicate`
    /// can report a like: a user in the set who does not exist, a post that does not exist, a user in it more than
    /// once; from `like_counts`, which has aggregated the likes by post already. Empty on a consistent export, where
    /// Spark's optimizer then drops the three rules' scans of the likes (`materialized` in spark/fanout_check.py
    /// makes an empty view a relation it knows is empty), which spares about 4 s on the 1.1 GB export
    /// (docs/performance.md "The rules on Spark and DuckDB").
    var likeSuspectsQuery: String {
        "SELECT c.post AS post FROM like_counts c WHERE c.strangers > 0 OR c.most > 1 OR NOT \(postExists("c.post"))"
    }

    /// The likes that the like rules read: those of `like_suspects`' posts where it is shared, else every like.
    package var suspectLikes: String {
        guard sharesLikeSuspects else { return table("likes") }
        return "(SELECT l.* FROM \(table("likes")) l LEFT SEMI JOIN like_suspects s ON s.post <=> l.post)"
    }

    // MARK: values

    /// A string literal; backslashes are written as `chr(92)`, since Spark reads them as escapes by default.
    package func text(_ value: String) -> String {
        let pieces = value.split(separator: "\\", omittingEmptySubsequences: false)
            .map { "'" + $0.replacing("'", with: "''") + "'" }
        return pieces.count == 1 ? pieces[0] : "(" + pieces.joined(separator: " || chr(92) || ") + ")"
    }

    /// SQL null as a string.
    package var null: String { "CAST(NULL AS \(dialect.text))" }

    /// The JSON text of the string `expression`.
    package func json(_ expression: String) -> String {
        "CAST(to_json(CAST(\(expression) AS VARIANT)) AS \(dialect.text))"
    }

    /// The decimal text of an integer `expression`.
    package func integer(_ expression: String) -> String { "CAST(\(expression) AS \(dialect.text))" }

    /// The JSON text of the whole-number double `expression` as the report writes it: an integer when it fits
    /// 64 bits, else the engine's spelling of the same number.
    package func wholeNumber(_ expression: String) -> String {
        "CASE WHEN abs(\(expression)) < 9.2e18 THEN CAST(CAST(\(expression) AS BIGINT) AS \(dialect.text)) "
            + "ELSE CAST(\(expression) AS \(dialect.text)) END"
    }

    /// Swift's `description` of the whole-number double `expression` (`1000000000000.0`, `1.7e+114`), as
    /// messages print numbers too large for an `Int`.
    package func swiftDescription(_ expression: String) -> String {
        let part = { (group: Int) in dialect.exponentPart(expression, group) }
        return
            "CASE WHEN abs(\(expression)) < 1e16 THEN CAST(CAST(\(expression) AS BIGINT) AS \(dialect.text)) || '.0' "
            + "ELSE \(part(1)) || \(part(2)) || CASE WHEN \(part(3)) IN ('', '0') THEN '' ELSE '.' || \(part(3)) END "
            + "|| 'e' || CASE WHEN \(part(4)) LIKE '-%' THEN '' ELSE '+' END || \(part(4)) END"
    }

    /// The JSON text of the schema's edge value (`true` or `1`).
    package var edgeValue: String { text(schema.edgeValue == .true ? "true" : "1") }

    /// The JSON text of a timeline entry for a post by the uid `owner`: the poster field holding it, and for rows
    /// keyed by an ID the post field holding `post`, else the edge value (the Swift rules' `timelineEntryValue`).
    package func timelineValue(_ owner: String, post: String? = nil) -> String {
        guard let timeline = schema.timeline else { return edgeValue }
        var fields: [(FieldPath, String)] = []
        if let field = timeline.post, let post { fields.append((field, json(post))) }
        if let field = timeline.posterUID { fields.append((field, json(owner))) }
        return fields.isEmpty ? edgeValue : object(fields)
    }

    /// The JSON text of a new entry of `relation` whose ends are the given expressions: the edge value, or for a
    /// row an object of the fields naming its ends (`Dataset.entryValue`).
    package func entryValue(_ relation: EdgeRelation, _ ends: [String: String]) -> String {
        let fields = [("user", relation.user), ("post", relation.post), ("target", relation.target)]
            .compactMap { end, field in field.flatMap { field in ends[end].map { (field, json($0)) } } }
        return fields.isEmpty ? edgeValue : object(fields)
    }

    /// The JSON text of an object with a value (JSON text) at each field path, members in the order given, nested
    /// paths as nested objects: what `RepairPatch.setting` builds from the same fields.
    package func object(_ fields: [(FieldPath, String)]) -> String {
        indirect enum Node {
            case leaf(String)
            case object([(String, Node)])
        }
        func set(_ keys: ArraySlice<String>, _ value: String, in node: Node) -> Node {
            guard let key = keys.first else { return .leaf(value) }
            guard case .object(var members) = node else { return set(keys, value, in: .object([])) }
            let current = members.first { $0.0 == key }?.1 ?? .object([])
            members.removeAll { $0.0 == key }
            members.append((key, set(keys.dropFirst(), value, in: current)))
            return .object(members)
        }
        var root = Node.object([])
        for (field, value) in fields { root = set(field.keys[...], value, in: root) }
        var pieces: [String] = [], literal = ""
        func emit(_ node: Node) {
            switch node {
            case .leaf(let value):
                pieces.append(text(literal))
                literal = ""
                pieces.append(value)
            case .object(let members):
                literal += "{"
                for (i, (key, child)) in members.enumerated() {
                    literal += (i > 0 ? "," : "") + JSONWriter.quoted(key) + ":"
                    emit(child)
                }
                literal += "}"
            }
        }
        emit(root)
        pieces.append(text(literal))
        return pieces.filter { $0 != "''" }.joined(separator: " || ")
    }

    /// A list of path expressions.
    package func array(_ items: [String]) -> String { dialect.array(items) }

    /// The fix setting each path to its JSON text.
    package func fix(_ entries: [(path: String, value: String)]) -> String {
        entries.isEmpty
            ? "CAST(\(dialect.array([])) AS \(dialect.fixType))"
            : dialect.array(entries.map { dialect.structure([("path", $0.path), ("value", $0.value)]) })
    }

    /// The fix deleting each path of the list `paths`.
    package func deleting(_ paths: String) -> String {
        dialect.transform(paths, dialect.structure([("path", "x"), ("value", "'null'")]))
    }

    // MARK: users

    /// What messages call the user with uid `key`: their username, else display name, else the uid;
    /// `no one` for a missing owner (`CheckContext.name`).
    ///
    /// `live_users` holds one row per uid, so the subquery returns at most one row and needs no aggregate: Spark
    /// plans it as a broadcast hash join to the live users (a "single" join, which would fail on a second row),
    /// one hash table that every lookup of a query reuses, where `max(…)` made Spark sort and aggregate the live
    /// users again for each lookup, a sixth of the rules' union on the 1.1 GB export (docs/performance.md "The rules
    /// on Spark and DuckDB"). DuckDB took the same time either way.
    package func name(_ key: String) -> String {
        "CASE WHEN \(key) IS NULL THEN 'no one' ELSE coalesce((SELECT coalesce(n.username, n.name) FROM live_users n "
            + "WHERE n.user = \(key)), \(key)) END"
    }

    /// Whether a user with uid `key` exists.
    package func userExists(_ key: String) -> String { "EXISTS (SELECT 1 FROM live_users x WHERE x.user = \(key))" }

    /// Whether a post with key `key` exists.
    package func postExists(_ key: String) -> String { "EXISTS (SELECT 1 FROM live_posts x WHERE x.post = \(key))" }

    // MARK: paths

    /// The path `pattern` gives for the captures' expressions (`{name}` where a capture is null or not given),
    /// as `Dataset`'s paths render it.
    package func path(_ pattern: PathPattern, _ captures: [String: String]) -> String {
        var parts: [String] = []
        var literal = ""
        for (index, segment) in pattern.segments.enumerated() {
            if index > 0 { literal += "/" }
            switch segment {
            case .literal(let text): literal += text
            case .capture(let name):
                guard let expression = captures[name] else {
                    literal += "{\(name)}"
                    continue
                }
                if !literal.isEmpty { parts.append(text(literal)) }
                literal = ""
                parts.append("coalesce(\(expression), \(text("{\(name)}")))")
            }
        }
        if !literal.isEmpty { parts.append(text(literal)) }
        return parts.joined(separator: " || ")
    }

    /// `path` followed by `/field`.
    package func path(_ path: String, field: FieldPath) -> String { "\(path) || \(text("/" + field.description))" }

    // MARK: rows

    /// The select list of a finding row.
    package func finding(
        paths: [String], pathList: String? = nil, expected: String? = nil, actual: String? = nil, fix: String,
        message: [String]
    ) -> String {
        """
        SELECT \(text(rule)) AS rule, \(text(severity.rawValue)) AS severity, \(pathList ?? array(paths)) AS paths,
          \(expected ?? null) AS expected, \(actual ?? null) AS actual, \(fix) AS fix,
          \(message.joined(separator: " || ")) AS message
        """
    }
}
