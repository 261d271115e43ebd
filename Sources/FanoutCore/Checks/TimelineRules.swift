import FanoutJSON

/// The stored timeline entries of existing posts, grouped by timeline owner key, post indexes ascending, for
/// membership tests. Entries of posts that do not exist are left out: no derived timeline holds them.
struct StoredTimelines {
    let byUser: GroupedIndex

    init(_ dataset: Dataset, _ derived: DerivedData) {
        var pairs: [(group: Int32, value: Int32)] = []
        pairs.reserveCapacity(dataset.timeline.count)
        for entry in dataset.timeline {
            if let p = derived.post(entry.post) { pairs.append((group: entry.user, value: Int32(p))) }
        }
        var index = GroupedIndex(groupCount: dataset.keys.count, pairs: pairs)
        index.sortAndDeduplicateGroups(by: <)
        byUser = index
    }

    func contains(user: KeyID, post p: Int32) -> Bool { byUser.sortedGroup(Int(user), contains: p) }
}

/// The value a stored timeline entry should hold for a post by `owner`: the edge value, or an object with the
/// poster field, and for rows keyed by an ID the post field (`post`, ``noKey`` for an entry whose post is its key).
func timelineEntryValue(_ dataset: Dataset, owner: KeyID, post: KeyID = noKey) -> JSONValue {
    guard let timeline = dataset.schema.timeline else { return dataset.schema.edgeValue.json }
    var fields: [(FieldPath, JSONValue)] = []
    if let field = timeline.post, post != noKey { fields.append((field, .string(dataset.key(post)))) }
    if let field = timeline.posterUID { fields.append((field, .string(dataset.key(owner)))) }
    guard !fields.isEmpty else { return dataset.schema.edgeValue.json }
    var value = JSONValue.object([])
    for (field, fieldValue) in fields { value = RepairPatch.setting(field.keys[...], to: fieldValue, in: value) }
    return value
}

/// `timeline-missing`: every post that belongs in a timeline has a stored entry.
struct TimelineMissingRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "timeline-missing", defaultSeverity: .error,
        summary: "Every post that belongs in a user's timeline (own posts, posts of followed users) has a stored entry.",
        explanation: """
            Posting fans the new post out to every follower's timeline, and following copies the followed user's \
            posts into the follower's timeline. When a fan-out fails half way, or a follower was added while the \
            post was being written, followers never see the post. The fix writes the missing entry.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.timeline(schema) ?? Requirement.posts(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        let stored = StoredTimelines(dataset, derived)
        var findings: [Finding] = []
        for (u, user) in dataset.users.enumerated() where derived.user(user.key) == u {  // the last of duplicated keys
            for p in derived.timelines[u] where !stored.contains(user: user.key, post: p) {
                let post = dataset.posts[Int(p)]
                guard let path = dataset.path(ofTimeline: user.key, post: post.key)
                else { continue }
                let whose = post.owner == user.key ? "their own post" : "\(context.name(post.owner))'s post"
                let value = timelineEntryValue(dataset, owner: post.owner, post: post.key)
                findings.append(finding(
                    "\(context.name(user.key))'s timeline is missing \(whose) \(dataset.key(post.key))",
                    paths: [path], expected: value, actual: JSONValue.null, fix: [PatchEntry(path, value)]
                ))
            }
        }
        return findings
    }

    func sql(_ q: SQLContext) -> String {
        let path = q.path(q.schema.timeline!.pattern, ["user": "m.reader", "post": "m.post", "id": "m.post"])
        let value = q.timelineValue("m.owner", post: "m.post")
        return q.with(q.timelineMembers) + q.finding(
            paths: [path], expected: value, actual: "'null'", fix: q.fix([(path, value)]),
            message: [q.name("m.reader"), "'''s timeline is missing '",
                      "CASE WHEN m.owner = m.reader THEN 'their own post' ELSE \(q.name("m.owner")) || '''s post' END", "' '", "m.post"]
        ) + "\nFROM members m\nWHERE NOT EXISTS (SELECT 1 FROM \(q.table("timeline")) t WHERE t.user = m.reader AND t.post = m.post)"
    }
}

/// `timeline-stale`: no stored entry from a user the timeline's owner does not follow.
struct TimelineStaleRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "timeline-stale", defaultSeverity: .warning,
        summary: "No stored timeline entry shows a post by someone the timeline's owner does not follow.",
        explanation: """
            Unfollowing should remove the unfollowed user's posts from the timeline; when that step fails the \
            posts stay. The fix deletes the entry.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.timeline(schema) ?? Requirement.posts(schema) ?? Requirement.follows(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        return dataset.timeline.compactMap { entry in
            guard let p = derived.post(entry.post) else { return nil }
            let owner = derived.postOwners[p]
            if owner == entry.user { return nil }
            if let u = derived.user(entry.user), derived.followedKeys.sortedGroup(u, contains: owner) { return nil }
            guard let path = dataset.path(of: entry) else { return nil }
            let reason = derived.user(entry.user) == nil
                ? "\(dataset.key(entry.user)) does not exist"
                : "\(context.name(entry.user)) does not follow \(context.name(owner))"
            return finding(
                "\(context.name(entry.user))'s timeline shows \(context.name(owner))'s post \(dataset.key(entry.post)), but \(reason)",
                paths: [path], expected: JSONValue.null, actual: timelineEntryValue(dataset, owner: entry.posterUID == noKey ? owner : entry.posterUID, post: entry.post),
                fix: [PatchEntry(path, .null)]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let path = "t.path"
        return q.with() + q.finding(
            paths: [path], expected: "'null'", actual: q.timelineValue("coalesce(t.poster, p.owner)", post: "t.post"),
            fix: q.fix([(path, "'null'")]),
            message: [q.name("t.user"), "'''s timeline shows '", q.name("p.owner"), "'''s post '", "t.post", "', but '",
                      "CASE WHEN \(q.userExists("t.user")) THEN \(q.name("t.user")) || ' does not follow ' || \(q.name("p.owner")) "
                        + "ELSE t.user || ' does not exist' END"]
        ) + "\nFROM \(q.table("timeline")) t JOIN live_posts p ON p.post = t.post\n"
            + "WHERE p.owner IS DISTINCT FROM t.user AND NOT (\(q.userExists("t.user")) AND EXISTS (SELECT 1 FROM \(q.followSource) f "
            + "WHERE f.user = t.user AND f.target = p.owner))"
    }
}

/// `timeline-unknown-post`: every stored entry points to an existing post.
struct TimelineUnknownPostRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "timeline-unknown-post", defaultSeverity: .error,
        summary: "Every stored timeline entry points to an existing post.",
        explanation: """
            Deleting a post must also delete its entry from every follower's timeline; when it does not, clients \
            read a post that is gone and show an empty cell or crash. The fix deletes the entry.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.timeline(schema) ?? Requirement.posts(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        return dataset.timeline.compactMap { entry in
            guard derived.post(entry.post) == nil, let path = dataset.path(of: entry) else {
                return nil
            }
            return finding(
                "\(context.name(entry.user))'s timeline points to post \(dataset.key(entry.post)), which does not exist",
                paths: [path], expected: JSONValue.null,
                actual: entry.posterUID == noKey ? dataset.schema.edgeValue.json : timelineEntryValue(dataset, owner: entry.posterUID, post: entry.post),
                fix: [PatchEntry(path, .null)]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let path = "t.path"
        return q.with() + q.finding(
            paths: [path], expected: "'null'",
            actual: "CASE WHEN t.poster IS NULL THEN \(q.edgeValue) ELSE \(q.timelineValue("t.poster", post: "t.post")) END",
            fix: q.fix([(path, "'null'")]),
            message: [q.name("t.user"), "'''s timeline points to post '", "t.post", "', which does not exist'"]
        ) + "\nFROM \(q.table("timeline")) t\nWHERE NOT \(q.postExists("t.post"))"
    }
}

/// `timeline-poster`: each entry's poster uid is the post's owner.
struct TimelinePosterRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "timeline-poster", defaultSeverity: .error,
        summary: "Each stored timeline entry's poster uid is the post's owner.",
        explanation: """
            Clients read a timeline entry's post at `posts/{poster_uid}/{key}`; a wrong poster uid makes the \
            post unreadable from the timeline. The fix rewrites the poster uid.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        guard let timeline = schema.timeline else { return "the schema has no stored timeline relation ([timeline] path)" }
        if timeline.posterUID == nil { return "the schema's timeline entries have no poster field ([timeline] poster)" }
        return Requirement.posts(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        guard let field = dataset.schema.timeline?.posterUID else { return [] }
        return dataset.timeline.compactMap { entry in
            guard let p = derived.post(entry.post) else { return nil }
            let owner = derived.postOwners[p]
            guard owner != noKey, entry.posterUID != owner,
                let entryPath = dataset.path(of: entry)
            else { return nil }
            let path = "\(entryPath)/\(field)"
            let actual: JSONValue = entry.posterUID == noKey ? .null : .string(dataset.key(entry.posterUID))
            return finding(
                "\(context.name(entry.user))'s timeline entry for post \(dataset.key(entry.post)) names "
                    + (entry.posterUID == noKey ? "no poster" : dataset.key(entry.posterUID))
                    + " as its poster, but the post belongs to \(dataset.key(owner))",
                paths: [path], expected: dataset.key(owner), actual: actual,
                fix: [PatchEntry(path, .string(dataset.key(owner)))]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let timeline = q.schema.timeline!
        let path = q.path("t.path", field: timeline.posterUID!)
        return q.with() + q.finding(
            paths: [path], expected: q.json("p.owner"), actual: "CASE WHEN t.poster IS NULL THEN 'null' ELSE \(q.json("t.poster")) END",
            fix: q.fix([(path, q.json("p.owner"))]),
            message: [q.name("t.user"), "'''s timeline entry for post '", "t.post", "' names '", "coalesce(t.poster, 'no poster')",
                      "' as its poster, but the post belongs to '", "p.owner"]
        ) + "\nFROM \(q.table("timeline")) t JOIN live_posts p ON p.post = t.post\n"
            + "WHERE p.owner IS NOT NULL AND t.poster IS DISTINCT FROM p.owner"
    }
}
