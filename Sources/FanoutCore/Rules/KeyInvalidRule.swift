/// `key-invalid`: every key the export stores facts under is a valid Firebase key, in a tree of legal depth.
struct KeyInvalidRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "key-invalid", defaultSeverity: .error,
        summary: "Every key is a valid Firebase key (no `.`, `$`, `#`, `[`, `]`, `/` or control characters, "
            + "at most 768 bytes) and every path is less than 32 keys deep.",
        explanation: """
            The Realtime Database refuses to write such keys and paths, so they only appear through imports, \
            migrations from other databases or hand-edited exports, and the SDKs and the REST API cannot read, \
            update or delete the data stored under them. There is no mechanical fix: the data has to move to a \
            valid key, together with every copy that names the old one (likes, follows, timeline entries).
            """,
        isMechanical: false
    )

    func missingRequirement(in schema: Schema) -> String? { Requirement.firebaseTree(schema) }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset
        // Every distinct key is checked once; facts are only scanned for paths when some key is invalid.
        var problems: [KeyID: String] = [:]
        for id in 0..<Int32(dataset.keys.count) {
            if let problem = dataset.keys.withBytes(id, FirebaseKey.problem) { problems[id] = problem }
        }
        var findings = depthFindings(dataset)
        guard !problems.isEmpty else { return findings }
        var locator = KeyLocator(dataset: dataset, problems: problems)
        locator.scan()
        for (id, path) in locator.firstPaths.sorted(by: { $0.value < $1.value }) {
            let key = dataset.key(id)
            findings.append(
                finding(
                    FirebaseKey.message(key: key, problem: problems[id]!), paths: [path], expected: nil, actual: key))
        }
        return findings
    }

    /// One finding per relation whose paths (with the deepest field read) reach the depth limit.
    private func depthFindings(_ dataset: Dataset) -> [Finding] {
        FirebaseKey.depthProblems(in: dataset.schema).map {
            finding($0.message, paths: [$0.path], expected: nil, actual: $0.depth)
        }
    }

    func sql(_ q: SQLContext) -> String {
        // The tables decide each key while reading; a key is reported once, at its first path in the order the
        // rule searches the facts (`relation_rank`, then `seq`).
        let problems = q.table("key_problems")
        return q.with(
            """
            first_paths AS (
              SELECT k.* FROM \(problems) k WHERE k.kind = 'key'
              QUALIFY row_number() OVER (PARTITION BY k.key ORDER BY k.relation_rank, k.seq) = 1
            )
            """) + q.finding(paths: ["k.path"], actual: q.json("k.key"), fix: q.fix([]), message: ["k.message"])
            + "\nFROM first_paths k\nUNION ALL\n"
            + q.finding(paths: ["k.path"], actual: q.integer("k.depth"), fix: q.fix([]), message: ["k.message"])
            + "\nFROM \(problems) k\nWHERE k.kind = 'depth'"
    }
}

extension FirebaseKey {
    /// A relation of a schema that stores data at or beyond the depth limit: a `key-invalid` finding that
    /// depends on the schema alone.
    public struct DepthProblem: Sendable, Equatable {
        /// The relation, as messages name it (`like mirror`).
        public var relation: String
        /// The relation's pattern, the finding's path.
        public var path: String
        /// How many keys deep the relation's data (with its deepest field) is stored.
        public var depth: Int
        /// The finding's message.
        public var message: String
    }

    /// The relations of `schema` whose paths (with the deepest field read) reach the depth limit.
    public static func depthProblems(in schema: Schema) -> [DepthProblem] {
        var deepest: [(String, PathPattern, Int)] = []
        if let users = schema.users {
            let fields = [users.username, users.name, users.profileImageURL].compactMap { $0?.keys.count }
            deepest.append(("users", users.pattern, fields.max() ?? 0))
        }
        if let posts = schema.posts {
            let fields =
                [
                    posts.owner, posts.createdAt?.field, posts.caption, posts.imageURL, posts.imageHeight,
                    posts.likeCount, posts.posterUID, posts.posterUsername,
                ].compactMap { $0?.keys.count }
                + posts.required.map(\.keys.count)
            deepest.append(("posts", posts.pattern, fields.max() ?? 0))
        }
        for (name, relation) in [
            ("likes", schema.likes), ("like mirror", schema.likeMirror),
            ("following", schema.following), ("followers", schema.followers),
        ] {
            if let relation { deepest.append((name, relation.pattern, 0)) }
        }
        if let timeline = schema.timeline {
            deepest.append(("timeline", timeline.pattern, timeline.posterUID?.keys.count ?? 0))
        }
        return deepest.compactMap { name, pattern, fieldDepth in
            let depth = pattern.segments.count + fieldDepth
            guard depth >= maximumDepth else { return nil }
            return DepthProblem(
                relation: name, path: pattern.description, depth: depth,
                message: "the \(name) relation stores data \(depth) keys deep (\(pattern)); Firebase allows fewer than "
                    + "\(maximumDepth)")
        }
    }

    /// The finding's message for the invalid key `key`, which has `problem` (``problem(_:)``).
    public static func message(key: String, problem: String) -> String {
        "key \"\(printable(key))\" \(problem)"
    }

    /// `key` with control characters spelled out, for messages.
    static func printable(_ key: String) -> String {
        let shown = key.unicodeScalars.map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
        return shown.count > 80 ? String(shown.prefix(77)) + "…" : shown
    }
}

/// Finds, for each invalid key, the first path where the export stores a fact under it: the path up to and
/// including the key (`users/a.b`, `posts/u1/-K.x`), read from the facts in schema order.
private struct KeyLocator {
    let dataset: Dataset
    let problems: [KeyID: String]
    /// Per key id: whether it is invalid and still has no path (a flat table, so facts are tested without hashing).
    private var pending: [Bool]
    var firstPaths: [KeyID: String] = [:]

    init(dataset: Dataset, problems: [KeyID: String]) {
        self.dataset = dataset
        self.problems = problems
        pending = [Bool](repeating: false, count: dataset.keys.count)
        for id in problems.keys { pending[Int(id)] = true }
    }

    mutating func scan() {
        let schema = dataset.schema
        if let users = schema.users {
            for user in dataset.users where isPending(user.key) { note(users.pattern, ["user": user.key]) }
        }
        if let posts = schema.posts {
            for post in dataset.posts where isPending(post.pathOwner) || isPending(post.key) {
                note(posts.pattern, ["poster": post.pathOwner, "post": post.key])
            }
        }
        for (relation, likes) in [(schema.likes, dataset.likes), (schema.likeMirror, dataset.likeMirror)] {
            guard let relation else { continue }
            for like in likes where isPending(like.post) || isPending(like.user) || isPending(like.id) {
                note(relation.pattern, ["post": like.post, "user": like.user, "id": like.id])
            }
        }
        for (relation, follows) in [(schema.following, dataset.following), (schema.followers, dataset.followers)] {
            guard let relation else { continue }
            for follow in follows where isPending(follow.user) || isPending(follow.target) || isPending(follow.id) {
                note(relation.pattern, ["user": follow.user, "target": follow.target, "id": follow.id])
            }
        }
        if let timeline = schema.timeline {
            for entry in dataset.timeline where isPending(entry.user) || isPending(entry.post) {
                note(timeline.pattern, ["user": entry.user, "post": entry.post])
            }
        }
    }

    private func isPending(_ id: KeyID) -> Bool { id != noKey && pending[Int(id)] }

    /// Records the path of each invalid key `captures` places in `pattern` that has no path yet.
    private mutating func note(_ pattern: PathPattern, _ captures: [String: KeyID]) {
        for name in pattern.captureNames {
            guard let id = captures[name], isPending(id) else { continue }
            firstPaths[id] = path(pattern, captures, through: name)
            pending[Int(id)] = false
        }
    }

    /// `pattern` rendered up to and including the capture `name`.
    private func path(_ pattern: PathPattern, _ captures: [String: KeyID], through name: String) -> String {
        var parts: [String] = []
        for segment in pattern.segments {
            switch segment {
            case .literal(let text): parts.append(text)
            case .capture(let capture):
                let id = captures[capture] ?? noKey
                parts.append(id == noKey ? "{\(capture)}" : dataset.key(id))
                if capture == name { return parts.joined(separator: "/") }
            }
        }
        return parts.joined(separator: "/")
    }
}
