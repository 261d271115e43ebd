import FanoutJSON

/// A `[[mirrors]]` declaration as a rule: the copy at `at` holds exactly the kept facts of the relation it mirrors
/// (docs/layouts.md "Declaring your app's copies").
struct DeclaredMirrorRule: MirrorRule {
    /// A fact of the relation, or an entry of the mirror: its two ends and its index (in the relation's array, or
    /// its row in the declared rows), in 12 bytes, as millions of them are compared.
    struct Entry {
        var a: KeyID, b: KeyID
        var index: Int32

        var pair: Int64 { Int64(a) << 32 | Int64(UInt32(bitPattern: b)) }
    }

    let declaration: MirrorDeclaration
    let descriptor: RuleDescriptor

    init(_ declaration: MirrorDeclaration) {
        self.declaration = declaration
        let of = declaration.of.rawValue
        descriptor = RuleDescriptor(
            id: declaration.name, defaultSeverity: declaration.severity ?? .error,
            summary: "`\(declaration.at)` holds exactly the \(of), both ways.",
            explanation: """
                Declared in the schema ([[mirrors]] \(declaration.name)): the app stores the \(of) a second time at \
                `\(declaration.at)`, so that each side can be read without the other. Writing a \
                \(declaration.of.noun) writes both in separate steps, so a failed or interrupted write, or an older \
                client, leaves one side only. The \(of) are the source of truth: a missing entry is added, and an \
                entry whose \(declaration.of.noun) does not exist is deleted\(declaration.ends.isEmpty ? "" : Self.kept).
                """)
    }

    /// Why an entry of a mirror whose rows name their ends in fields is not deleted.
    private static let kept =
        " only by hand: its row is a record of its own, whose other fields may exist nowhere else"

    var deletesOrphans: Bool { declaration.ends.isEmpty }

    /// The capture of `at` that keys its rows when each row is the bare key of an end (a list of IDs,
    /// ``numberingListEntries(_:capture:elementPaths:)``): the last one that is no end.
    var listCapture: String? {
        guard declaration.ends.values.contains(where: \.keys.isEmpty) else { return nil }
        let (first, second) = declaration.pair
        let ends = [first, second].compactMap { end -> String? in
            if case .capture(let name)? = declaration.endSource(end) { return name }
            return nil
        }
        return declaration.at.captureNames.last { !ends.contains($0) }
    }

    func listNumbering(in context: CheckContext) -> (capture: String, elementPaths: () -> [String])? {
        guard let capture = listCapture else { return nil }
        let dataset = context.dataset, s = set(dataset)
        return (capture, { (0..<dataset.declared[s].count).map { dataset.path(ofRow: $0, in: s) } })
    }

    func missingRequirement(in schema: Schema) -> String? {
        declaration.of.isPlaced(in: schema)
            ? nil
            : "the schema has no \(declaration.of.rawValue) relation (\(declaration.of.schemaKey))"
    }

    let orphanNamesSourceFirst = false

    private func set(_ dataset: Dataset) -> Int { dataset.rowSets.rows(of: declaration.name)! }

    /// The relation's facts, and the mirror's rows as entries made when they are read.
    func sides(of context: CheckContext) -> (source: [Entry], mirror: LazyMapCollection<Range<Int>, Entry>) {
        let dataset = context.dataset, s = set(dataset), rows = dataset.declared[s], spec = dataset.rowSets.sets[s]
        var source: [Entry] = []
        if let r = recordsSet(dataset) {
            let records = dataset.declared[r], key = dataset.rowSets.sets[r].a!, group = dataset.rowSets.sets[r].b!
            let parents = parentKeys(in: dataset)
            source.reserveCapacity(records.count)
            for row in 0..<records.count {
                let entry = Entry(a: records.key(row, group), b: records.key(row, key), index: Int32(row))
                // A record naming a parent that does not exist has no entry to check: none is added under
                // `forums/f-gone` (the reference's finding says the parent is missing).
                if let parents, entry.a == noKey || !parents[Int(entry.a)] { continue }
                source.append(entry)
            }
        } else {
            let facts = RelationFacts(context: context)
            source.reserveCapacity(facts.count(declaration.of))
            facts.each(declaration.of) { source.append(Entry(a: $0.a, b: $0.b, index: Int32($0.index))) }
        }
        let a = spec.a!, b = spec.b!
        return (source, (0..<rows.count).lazy.map { Entry(a: rows.key($0, a), b: rows.key($0, b), index: Int32($0)) })
    }

    func pair(_ entry: Entry) -> Int64 { entry.pair }

    /// The collection whose records the mirror's entries are stored under, named by the end that groups them
    /// (`forums/{forum}` for `forums/{forum}/threads/{thread}`), when its key is the one it is stored under.
    func parentRecords(in schema: Schema) -> RecordRelation? {
        let group = declaration.pair.0
        return schema.records.first { record in
            record.key == nil && record.keyName == group
                && record.pattern.segments.count < declaration.at.segments.count
                && Array(declaration.at.segments.prefix(record.pattern.segments.count)) == record.pattern.segments
        }
    }

    /// Which keys name an existing record of ``parentRecords(in:)``, by ``KeyID``; nil when the mirror has no
    /// parent collection.
    private func parentKeys(in dataset: Dataset) -> [Bool]? {
        guard let parent = parentRecords(in: dataset.schema),
            let p = dataset.rowSets.records(of: .records(parent.name), by: nil)
        else { return nil }
        let rows = dataset.declared[p], key = dataset.rowSets.sets[p].a!
        var exists = [Bool](repeating: false, count: dataset.keys.count)
        for row in 0..<rows.count where rows.key(row, key) != noKey { exists[Int(rows.key(row, key))] = true }
        return exists
    }

    /// The records a mirror of a collection copies, grouped by the end it pairs them with; nil for a relation.
    private func recordsSet(_ dataset: Dataset) -> Int? {
        declaration.of.recordsName == nil ? nil : dataset.rowSets.records(of: declaration.of, by: declaration.pair.0)
    }

    /// The fact `entry` of the source is, with the author of a comment.
    private func fact(_ entry: Entry, in dataset: Dataset) -> RelationFact {
        RelationFact(
            a: entry.a, b: entry.b, c: declaration.of == .comments ? dataset.comments[Int(entry.index)].user : noKey,
            index: Int(entry.index))
    }

    func paths(of entry: Entry, fromSource: Bool, in dataset: Dataset) -> (source: String?, mirror: String?) {
        let fact = RelationFact(a: entry.a, b: entry.b, index: Int(entry.index))
        let source: String?
        switch declaration.of {
        case .posts: source = dataset.path(ofPost: fact.b, owner: fact.a)
        case .likes:
            source = dataset.path(ofLike: fromSource ? dataset.likes[fact.index] : Like(post: fact.a, user: fact.b))
        case .follows:
            let follow =
                fromSource
                ? (dataset.schema.following != nil ? dataset.following : dataset.followers)[fact.index]
                : Follow(user: fact.a, target: fact.b)
            source =
                dataset.schema.following != nil ? dataset.path(ofFollowing: follow) : dataset.path(ofFollower: follow)
        case .comments:
            source = dataset.path(
                of: fromSource ? dataset.comments[fact.index] : Comment(id: fact.b, post: fact.a, user: noKey))
        case .flags:
            source = dataset.path(ofFlag: fromSource ? dataset.flags[fact.index] : Flag(post: fact.a, user: fact.b))
        case .records(let name):
            if fromSource, let r = recordsSet(dataset) {
                source = dataset.path(ofRow: fact.index, in: r)
            } else {
                // Where the record would be: its path with its key, other captures left as written.
                let record = dataset.schema.record(named: name)!
                source = record.pattern.render { $0 == record.keyName ? dataset.key(fact.b) : "{\($0)}" }
            }
        case .users, .timeline: source = nil
        }
        if !fromSource { return (source, dataset.path(ofRow: Int(entry.index), in: set(dataset))) }
        let (first, second) = declaration.pair
        let fieldEnds = [first, second].filter { declaration.ends[$0] != nil }.map { $0 == first ? fact.a : fact.b }
        let mirror = declaration.at.render { name in
            switch declaration.endSource(first) == .capture(name)
                ? 0 : declaration.endSource(second) == .capture(name) ? 1 : -1
            {
            case 0: fact.a == noKey ? "{\(name)}" : dataset.key(fact.a)
            case 1: fact.b == noKey ? "{\(name)}" : dataset.key(fact.b)
            // A list's new element is numbered once every missing one is known (``findings(in:)``).
            default: name == "id" && listCapture == nil ? dataset.newRowKey(fieldEnds) : "{\(name)}"
            }
        }
        return (source, mirror)
    }

    func reportsMissing(_ entry: Entry, in context: CheckContext) -> Bool {
        // Records whose parent does not exist are left out of the source (``parentKeys(in:)``).
        if declaration.of.recordsName != nil { return entry.a != noKey && entry.b != noKey }
        let facts = RelationFacts(context: context)
        guard facts.isKept(fact(entry, in: context.dataset), of: declaration.of) else { return false }
        // A post whose owner does not exist is `post-unknown-poster`'s.
        return declaration.of != .posts || (entry.a != noKey && facts.userExists(entry.a))
    }

    func entryValue(_ entry: Entry, in dataset: Dataset) -> JSONValue {
        let (first, second) = declaration.pair
        let fields = [first, second].compactMap { end in
            declaration.ends[end].map { ($0, end == first ? entry.a : entry.b) }
        }
        if !fields.isEmpty {
            var value = JSONValue.object([])
            for (field, key) in fields {
                value = RepairPatch.setting(field.keys[...], to: .string(dataset.key(key)), in: value)
            }
            return value
        }
        if let end = declaration.value { return .string(dataset.key(end == first ? entry.a : entry.b)) }
        return dataset.schema.edgeValue.json
    }

    /// "alice's post -Kx", "bob's like of post -Kx", "alice's follow of bob", "comment -Kc on post -Kx".
    private func described(_ fact: Entry, in context: CheckContext) -> String {
        let (first, second) = declaration.pair
        let a = shownKey(fact.a, first, context.dataset), b = shownKey(fact.b, second, context.dataset)
        switch declaration.of {
        case .posts: return "\(context.name(fact.a))'s post \(b)"
        case .likes: return "\(context.name(fact.b))'s like of post \(a)"
        case .follows: return "\(context.name(fact.a))'s follow of \(context.name(fact.b))"
        case .comments: return "comment \(b) on post \(a)"
        case .flags: return "\(context.name(fact.b))'s flag of post \(a)"
        case .records: return "\(declaration.of.noun) \(b) of \(first) \(a)"
        case .users, .timeline: return ""
        }
    }

    /// A key of end `end` as messages show it; an entry whose row lacks the field naming it shows the field
    /// (`(no postId)`), rather than an empty name.
    private func shownKey(_ key: KeyID, _ end: String, _ dataset: Dataset) -> String {
        key == noKey ? Self.unnamed(declaration.ends[end]?.description ?? end) : dataset.key(key)
    }

    private static func unnamed(_ field: String) -> String { "(no \(field))" }

    func missingMessage(_ entry: Entry, in context: CheckContext) -> String {
        "\(described(entry, in: context)) is missing from \(declaration.at)"
    }

    func orphanMessage(_ entry: Entry, in context: CheckContext) -> String {
        "\(described(entry, in: context)) is in \(declaration.at) but not in \(declaration.of.rawValue)"
    }

    // MARK: SQL

    func sqlSides(_ q: SQLContext) -> (source: MirrorSide, mirror: MirrorSide) {
        let (first, second) = sqlPair
        let source: MirrorSide
        switch declaration.of {
        case .posts:
            source = MirrorSide(
                from: "(SELECT p.owner AS poster, p.post AS post, p.path AS path, p.seq AS seq FROM live_posts p)",
                pattern: q.schema.posts!.pattern)
        case .likes: source = q.side("likes", q.schema.likes!)
        case .follows:
            source =
                q.schema.following != nil
                ? q.side("following", q.schema.following!) : q.side("followers", q.schema.followers!)
        case .comments: source = MirrorSide(from: q.table("comments"), pattern: q.schema.comments!.pattern)
        case .flags: source = q.side("flags", q.schema.flags!)
        case .records:
            let records = RowSets.records(declaration.of, by: first, in: q.schema)!
            source = MirrorSide(
                from:
                    "(SELECT x.b AS \(first), x.a AS \(second), x.path AS path, x.seq AS seq FROM "
                    + "\(q.declaredRows(records)) x WHERE x.a IS NOT NULL AND x.b IS NOT NULL)",
                pattern: records.pattern)
        case .users, .timeline: fatalError("not a mirrored relation")
        }
        let spec = q.rowSet(rowsOf: declaration.name)
        let fields = [first, second].filter { declaration.ends[$0] != nil }
        let rows =
            "(SELECT x.a AS \(first), x.b AS \(second), x.path AS path, x.seq AS seq FROM \(q.table("declared")) x "
            + "WHERE x.role = 'rows' AND x.name = \(q.text(spec.name)))"
        var mirror = MirrorSide(
            from: rows, pattern: declaration.at,
            newRowKey: fields.isEmpty ? nil : { row in fields.map { "\(row).\($0)" }.joined(separator: " || '_' || ") })
        if let capture = listCapture, let list = [first, second].first(where: { declaration.ends[$0] == nil }),
            let element = fields.first
        {
            mirror.numberAsList(capture: capture, list: list, element: element, q)
        }
        return (source, mirror)
    }

    var sqlPair: (String, String) { declaration.pair }

    func sqlCaptures(_ row: String) -> [String: String] {
        let (first, second) = sqlPair
        var captures = [first: "\(row).\(first)", second: "\(row).\(second)"]
        // The mirror's own names for the ends (a posts mirror may capture the owner as {user}).
        for end in [first, second] {
            if case .capture(let name)? = declaration.endSource(end) { captures[name] = "\(row).\(end)" }
        }
        if declaration.of == .comments { captures["user"] = nil }
        return captures
    }

    func sqlReportsMissing(_ row: String, _ q: SQLContext) -> String {
        let users = q.schema.users != nil, posts = q.schema.posts != nil
        let conditions: [String]
        switch declaration.of {
        case .posts: conditions = ["\(row).poster IS NOT NULL"] + (users ? [q.userExists("\(row).poster")] : [])
        case .likes:
            conditions = (users ? [q.userExists("\(row).user")] : []) + (posts ? [q.postExists("\(row).post")] : [])
        case .follows:
            conditions =
                ["\(row).user <> \(row).target"]
                + (users ? [q.userExists("\(row).user"), q.userExists("\(row).target")] : [])
        case .comments:
            conditions = (posts ? [q.postExists("\(row).post")] : []) + (users ? [q.userExists("\(row).user")] : [])
        case .records:
            conditions =
                parentRecords(in: q.schema).map { parent in
                    [
                        "EXISTS (SELECT 1 FROM \(q.table("declared")) t WHERE t.role = 'records' AND t.name = "
                            + "\(q.text(parent.name)) AND t.a = \(row).\(sqlPair.0))"
                    ]
                } ?? []
        case .flags, .users, .timeline: conditions = []
        }
        return conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND ")
    }

    func sqlEntryValue(_ row: String, _ q: SQLContext) -> String {
        let (first, second) = sqlPair
        let fields = [first, second].compactMap { end in declaration.ends[end].map { ($0, q.json("\(row).\(end)")) } }
        if !fields.isEmpty { return q.object(fields) }
        if let end = declaration.value { return q.json("\(row).\(end)") }
        return q.edgeValue
    }

    private func sqlDescribed(_ row: String, _ q: SQLContext) -> [String] {
        let key = { (end: String) in
            "coalesce(\(row).\(end), \(q.text(Self.unnamed(self.declaration.ends[end]?.description ?? end))))"
        }
        return switch declaration.of {
        case .posts: [q.name("\(row).poster"), "'''s post '", key("post")]
        case .likes: [q.name("\(row).user"), "'''s like of post '", key("post")]
        case .follows: [q.name("\(row).user"), "'''s follow of '", q.name("\(row).target")]
        case .comments: ["'comment '", key("id"), "' on post '", key("post")]
        case .flags: [q.name("\(row).user"), "'''s flag of post '", key("post")]
        case .records: [q.text("\(declaration.of.noun) "), key(sqlPair.1), q.text(" of \(sqlPair.0) "), key(sqlPair.0)]
        case .users, .timeline: []
        }
    }

    func sqlMissingMessage(_ row: String, _ q: SQLContext) -> [String] {
        sqlDescribed(row, q) + [q.text(" is missing from \(declaration.at)")]
    }

    func sqlOrphanMessage(_ row: String, _ q: SQLContext) -> [String] {
        sqlDescribed(row, q) + [q.text(" is in \(declaration.at) but not in \(declaration.of.rawValue)")]
    }
}
