import FanoutJSON

/// `like-duplicate`: one like per user and post.
struct LikeDuplicateRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "like-duplicate", defaultSeverity: .warning,
        summary: "Each user likes a post at most once.",
        explanation: """
            A like set keyed by user (`postLikes/{post}/{user}`) cannot hold a like twice, but row stores can: \
            Parse's `Like` class gets a second row when a double tap races the first request, and a hand-edited \
            or concatenated JSON export can repeat a key. Duplicates are counted once, but unliking deletes one \
            row and leaves the other, so the like comes back. The fix keeps one like: it deletes the extra rows, \
            or rewrites a repeated key once.
            """
    )

    func missingRequirement(in schema: Schema) -> String? { Requirement.likes(schema) }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset
        var findings: [Finding] = []
        for group in Self.repeatedPairs(dataset) {
            findings.append(duplicate(group.map { dataset.likes[$0] }, context))
        }
        return findings
    }

    /// The rows of each (post, user) pair stored more than once, in the order read.
    ///
    /// A Firebase export stores each post's likes together (`postLikes/{post}/…`), so a repeat can only be
    /// inside one such run of rows and each run is checked on its own, without hashing millions of likes. Rows
    /// in any other order (Parse classes, a post key repeated in the tree) are grouped by post first.
    static func repeatedPairs(_ dataset: Dataset) -> [[Int]] {
        let likes = dataset.likes
        var runs: [Range<Int>] = []
        var started = [Bool](repeating: false, count: dataset.keys.count)
        var contiguous = true
        var start = 0
        while start < likes.count {
            let post = likes[start].post
            var end = start + 1
            while end < likes.count && likes[end].post == post { end += 1 }
            if started[Int(post)] {
                contiguous = false
                break
            }
            started[Int(post)] = true
            if end - start > 1 { runs.append(start..<end) }
            start = end
        }
        var groups: [[Int]] = []
        if contiguous {
            for run in runs { groups += repeats(Array(run), likes) }
            return groups
        }
        let byPost = GroupedIndex(
            groupCount: dataset.keys.count, pairs: likes.indices.map { (likes[$0].post, Int32($0)) })
        for g in 0..<byPost.groupCount where byPost[g].count > 1 {
            groups += repeats(byPost[g].map(Int.init), likes)
        }
        return groups
    }

    /// The rows among `rows` (all of one post) that share a user, grouped, each group in reading order.
    private static func repeats(_ rows: [Int], _ likes: [Like]) -> [[Int]] {
        let sorted = rows.sorted { (likes[$0].user, $0) < (likes[$1].user, $1) }
        var groups: [[Int]] = []
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count && likes[sorted[end]].user == likes[sorted[start]].user { end += 1 }
            if end - start > 1 { groups.append(Array(sorted[start..<end])) }
            start = end
        }
        return groups
    }

    /// One finding for `likes`, the rows of one (post, user) pair in the order read.
    private func duplicate(_ likes: [Like], _ context: CheckContext) -> Finding {
        let dataset = context.dataset, like = likes[0]
        let message = "\(context.name(like.user)) likes post \(dataset.key(like.post)) \(likes.count) times"
        let paths = likes.compactMap { dataset.path(ofLike: $0) }
        if like.id != noKey {
            // Rows with their own keys: keep the first row, delete the others.
            let extra = Array(paths.dropFirst())
            return finding(
                message, paths: extra + [paths[0]], expected: 1, actual: likes.count,
                fix: extra.map { PatchEntry($0, .null) })
        }
        // A repeated key in one JSON object: writing the key once leaves one like.
        return finding(
            message, paths: [paths[0]], expected: 1, actual: likes.count,
            fix: [PatchEntry(paths[0], dataset.schema.edgeValue.json)])
    }

    func sql(_ q: SQLContext) -> String {
        let d = q.dialect
        let path = q.path(q.schema.likes!.pattern, ["post": "l.post", "user": "l.user", "id": "l.id"])
        let first = d.element("g.paths", 1), extra = d.rest("g.paths")
        // The posts a user likes more than once first (`like_counts`' `most`, from the one aggregation of the likes
        // by post and user that the like counts come from), then the path lists of those posts' likes alone:
        // building every pair's path list before HAVING kept them was most of the rule's time, and grouping every
        // like again by pair for this rule alone most of the rest.
        return q.with(
            q.likeCounts,
            """
            repeated_posts AS (
              SELECT c.post AS post FROM like_counts c WHERE c.most > 1
            ),
            repeated AS (
              SELECT l.post AS post, l.user AS user, count(*) AS n, \(d.orderedList(path, by: "l.seq")) AS paths,
                min_by(CASE WHEN l.id IS NULL THEN 0 ELSE 1 END, l.seq) AS has_id
              FROM \(q.suspectLikes) l
              JOIN repeated_posts r ON l.post IS NOT DISTINCT FROM r.post
              GROUP BY l.post, l.user
              HAVING count(*) > 1
            )
            """)
            + q.finding(
                paths: [],
                pathList:
                    "CASE WHEN g.has_id = 1 THEN \(d.concatenate(extra, q.array([first]))) ELSE \(q.array([first])) END",
                expected: "'1'", actual: q.integer("g.n"),
                fix: "CASE WHEN g.has_id = 1 THEN \(q.deleting(extra)) ELSE \(q.fix([(first, q.edgeValue)])) END",
                message: [q.name("g.user"), "' likes post '", "g.post", "' '", q.integer("g.n"), "' times'"]
            ) + "\nFROM repeated g"
    }
}
