import FanoutJSON

/// A `[[counters]]` declaration as a rule: each stored number at `at` equals the number of kept facts of the
/// relation it counts, in its group (docs/layouts.md "Declaring your app's copies").
struct DeclaredCounterRule: CounterRule {
    let declaration: CounterDeclaration
    let descriptor: RuleDescriptor

    init(_ declaration: CounterDeclaration) {
        self.declaration = declaration
        let what = Self.counted(declaration.counts, per: declaration.per)
        descriptor = RuleDescriptor(
            id: declaration.name, defaultSeverity: declaration.severity ?? .error,
            summary: "`\(declaration.at)` equals the number of \(what).",
            explanation: """
                Declared in the schema ([[counters]] \(declaration.name)): the app keeps the number of \(what) at \
                `\(declaration.at)`, so that pages can show it without reading them. Writing a \
                \(declaration.counts.noun) and updating the counter are separate steps; when one of them fails, or \
                two clients race without a transaction, the counter drifts. The \(declaration.counts.rawValue) are \
                the source of truth: the fix sets the counter to their number. What the repair deletes (a \
                \(declaration.counts.noun) whose ends do not exist, a repeated one) is not counted\(Self.selfFollows(declaration)). \
                The finding's delta is stored minus counted.
                """)
    }

    /// What a follows counter does with a user's follow of themself, for its explanation.
    static func selfFollows(_ declaration: CounterDeclaration) -> String {
        guard declaration.counts == .follows else { return "" }
        return declaration.countsSelf
            ? "; a user's follow of themself is counted, as the schema says the app counts it (self = \"counted\")"
            : ", nor is a user's follow of themself (declare self = \"counted\" if the app counts it)"
    }

    /// "posts of each poster", "likes of each post", "users".
    static func counted(_ relation: DeclaredRelation, per: String?) -> String {
        per.map { "\(relation.rawValue) of each \($0)" } ?? relation.rawValue
    }

    func missingRequirement(in schema: Schema) -> String? {
        declaration.counts.isPlaced(in: schema)
            ? nil
            : "the schema has no \(declaration.counts.rawValue) relation (\(declaration.counts.schemaKey))"
    }

    private func set(_ dataset: Dataset) -> Int { dataset.rowSets.rows(of: declaration.name)! }

    /// The stored counters (the reading's subject is the declared row).
    func eachReading(in context: CheckContext, _ body: (CounterReading) -> Void) {
        let dataset = context.dataset, s = set(dataset), rows = dataset.declared[s], spec = dataset.rowSets.sets[s]
        guard rows.count > 0 else { return }
        let count = RelationFacts(context: context, keepsSelfFollows: declaration.countsSelf).counter(
            declaration.counts, per: declaration.per)
        let named = keysNamed(in: dataset)
        for row in 0..<rows.count where rows.values[row].isPresent {
            let stored = spec.a.map { rows.key(row, $0) } ?? noKey
            let group = named.flatMap { $0[stored] } ?? stored
            body(CounterReading(subject: row, stored: rows.values[row], counted: count(group), group: group))
        }
    }

    /// For a counter stored in records named by a field (``CounterDeclaration/keyedHolder(in:)``), the key each
    /// record names by the key it is stored under; nil when the counter's capture is the key itself.
    private func keysNamed(in dataset: Dataset) -> [KeyID: KeyID]? {
        guard let holder = declaration.keyedHolder(in: dataset.schema) else { return nil }
        var named: [KeyID: KeyID] = [:]
        switch holder {
        case .users: for user in dataset.users where user.storedKey != noKey { named[user.storedKey] = user.key }
        case .posts: for post in dataset.posts where post.storedKey != noKey { named[post.storedKey] = post.key }
        default:
            guard let s = dataset.rowSets.records(of: holder, by: nil), let name = holder.recordsName,
                let record = dataset.schema.record(named: name),
                let capture = dataset.rowSets.sets[s].pattern.captureNames.firstIndex(of: record.keyName)
            else { return nil }
            let rows = dataset.declared[s], key = dataset.rowSets.sets[s].a!
            for row in 0..<rows.count where rows.key(row, key) != noKey {
                named[rows.key(row, capture)] = rows.key(row, key)
            }
        }
        return named
    }

    func path(of reading: CounterReading, in context: CheckContext) -> String {
        let s = set(context.dataset)
        return context.dataset.path(ofRow: reading.subject, in: s, field: context.dataset.rowSets.sets[s].fieldPart)
    }

    /// What messages call the stored number: its field (`tweetCount`), or the last key of its pattern
    /// (`postsCount` for `stats/postsCount`).
    var counterName: String {
        let (row, field) = declaration.at.rowAndField
        if let last = field.keys.last { return last }
        return row.segments.last.map { if case .literal(let text) = $0 { text } else { "the counter" } }
            ?? "the counter"
    }

    func message(_ reading: CounterReading, in context: CheckContext) -> String {
        let stored = reading.stored.int64
        return "\(counterName) stores \(reading.stored.text ?? "nothing") but "
            + phrase(reading.counted, group: reading.group, in: context)
            + (stored.map { Self.delta($0, reading.counted) } ?? "")
    }

    /// What the count is, in words: "alice has 3 posts", "post -Kx has 1 comment", "the export has 12 users".
    private func phrase(_ n: Int, group: KeyID, in context: CheckContext) -> String {
        let name = { context.name(group) }, key = { context.dataset.key(group) }
        let (whose, verb, noun) = Self.words(declaration.counts, per: declaration.per)
        let counted = "\(n) \(n == 1 ? noun.0 : noun.1)"
        switch whose {
        case .export: return "the export has \(counted)"
        case .user: return "\(name()) \(verb) \(counted)"
        case .post: return "post \(key()) \(verb) \(counted)"
        case .group(let group): return "\(group) \(key()) \(verb) \(counted)"
        }
    }

    /// Whose count it is: the export's, a user's (named by their username), a post's, or another record's (by
    /// its key: "thread t1").
    enum Whose {
        case export, user, post
        case group(String)
    }

    /// How a count is phrased: whose it is, the verb, and the noun (singular, plural).
    static func words(_ relation: DeclaredRelation, per: String?) -> (Whose, String, (String, String)) {
        let whose: Whose =
            switch per {
            case nil: .export
            case "post": .post
            case "user", "poster", "target": .user
            case let group?: .group(group)
            }
        switch (relation, per) {
        case (.likes, "user"): return (whose, "likes", ("post", "posts"))
        case (.follows, "user"): return (whose, "follows", ("user", "users"))
        case (.follows, "target"): return (whose, "has", ("follower", "followers"))
        case (.comments, "user"): return (whose, "wrote", ("comment", "comments"))
        case (.flags, "user"): return (whose, "flagged", ("post", "posts"))
        case (.timeline, "user"): return (whose, "has in their timeline", ("post", "posts"))
        case (.timeline, "post"): return (whose, "is in", ("timeline", "timelines"))
        default:
            let noun = relation.noun
            let plural = relation.recordsName ?? (noun == "timeline entry" ? "timeline entries" : noun + "s")
            return (whose, "has", (noun, plural))
        }
    }

    /// The counter's rows for SQL, their `a` the key each names: for a counter in records named by a field, the
    /// key of the record whose node holds it (``keysNamed(in:)``).
    private func rows(_ spec: RowSet, _ q: SQLContext) -> String {
        let rows = q.declaredRows(spec)
        guard let holder = declaration.keyedHolder(in: q.schema) else { return rows }
        let keys: String
        switch holder {
        case .users: keys = "SELECT u.path AS path, u.user AS k FROM \(q.table("users")) u"
        case .posts: keys = "SELECT p.path AS path, p.post AS k FROM \(q.table("posts")) p"
        default:
            let records = RowSets.records(holder, by: nil, in: q.schema)!
            keys = "SELECT x.path AS path, x.a AS k FROM \(q.declaredRows(records)) x"
        }
        return
            "(SELECT r.path AS path, r.seq AS seq, coalesce(h.k, r.a) AS a, r.b AS b, r.value AS value FROM \(rows) r "
            + "LEFT JOIN (\(keys)) h ON h.path = r.path)"
    }

    func sql(_ q: SQLContext) -> String {
        let spec = q.rowSet(rowsOf: declaration.name)
        let facts = q.keptFacts(declaration.counts, per: declaration.per, keepsSelfFollows: declaration.countsSelf)
        let group = declaration.per.map { declaration.countsRecords ? "f.grp" : "f.\($0)" }
        let counts =
            "counts AS (\n  SELECT \(group ?? "NULL") AS grp, count(*) AS n FROM kept f\(group.map { " GROUP BY \($0)" } ?? "")\n)"
        let counted = "coalesce(c.n, 0)"
        let path = spec.fieldPart.keys.isEmpty ? "d.path" : q.path("d.path", field: spec.fieldPart)
        let stored = q.storedInteger("d.value")
        let (whose, verb, noun) = Self.words(declaration.counts, per: declaration.per)
        let subject: [String] =
            switch whose {
            case .export: ["'the export has '"]
            case .user: [q.name("d.a"), q.text(" \(verb) ")]
            case .post: ["'post '", "d.a", q.text(" \(verb) ")]
            case .group(let group): [q.text("\(group) "), "d.a", q.text(" \(verb) ")]
            }
        let delta = "(\(stored) - \(counted))"
        return q.counterFindings(
            ctes: [facts, counts],
            from: rows(spec, q) + " d LEFT JOIN counts c ON "
                + (group == nil ? "TRUE" : "c.grp = d.a"),
            path: path, stored: stored, storedJSON: "d.value", counted: counted,
            where: "d.value IS NOT NULL AND d.value <> 'null'",
            message: [q.text(counterName), "' stores '", "d.value", "' but '"] + subject
                + [
                    "CASE WHEN \(counted) = 1 THEN \(q.text("1 " + noun.0)) ELSE \(q.integer(counted)) || \(q.text(" " + noun.1)) END",
                    "CASE WHEN \(stored) IS NULL THEN '' ELSE ' (' || CASE WHEN \(delta) > 0 THEN '+' ELSE '' END || \(q.integer(delta)) || ')' END",
                ])
    }
}
