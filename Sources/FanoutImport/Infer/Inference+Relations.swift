import FanoutJSON

/// The relations the built-in rules check: the users' and posts' fields, likes, follows, the stored timeline,
/// comments, and each one's mirror.
extension Inference {
    /// Edge sets that pair two IDs at a place of two captures, from `from`'s records to `to`'s.
    func edges(from: (Set<String>) -> Bool, to: (Set<String>) -> Bool) -> [ShapeScan.EdgeSet] {
        scan.edges.filter { edge in
            guard Self.captures(edge.place) == 2, edge.place != posts?.place, edge.place != users?.place else {
                return false
            }
            return from(Set(edge.pairs.prefix(2_000).map(\.from))) && to(Set(edge.pairs.prefix(2_000).map(\.to)))
        }
    }

    /// How many of `a`'s pairs are in `b` reversed, and of `b`'s in `a`.
    static func transposed(_ a: ShapeScan.EdgeSet, _ b: ShapeScan.EdgeSet) -> Evidence {
        let forward = Set(a.pairs.map { $0.from + "\u{0}" + $0.to })
        let backward = Set(b.pairs.map { $0.to + "\u{0}" + $0.from })
        var evidence = Evidence()
        for pair in a.pairs {
            evidence.add(
                path: pair.path.joined(separator: "/"), agrees: backward.contains(pair.from + "\u{0}" + pair.to))
        }
        for pair in b.pairs {
            evidence.add(
                path: pair.path.joined(separator: "/"), agrees: forward.contains(pair.to + "\u{0}" + pair.from))
        }
        return evidence
    }

    /// The pattern of an edge set whose ends are named `from` and `to` (an array's element is a row `{id}`).
    static func edgePattern(_ edge: ShapeScan.EdgeSet, _ from: String, _ to: String) -> String {
        pattern(edge.place, [from, edge.storage == .array || edge.field != nil ? "id" : to])
    }

    /// A relation's pattern as a schema file writes it: the pattern, or for rows naming their end `to` in a field,
    /// `{ path = "…/{id}", to = "field" }`.
    static func edgeValue(_ edge: ShapeScan.EdgeSet, _ from: String, _ to: String) -> String {
        let path = SchemaText.string(edgePattern(edge, from, to))
        guard let field = edge.field else { return path }
        return "{ path = \(path), \(to) = \(SchemaText.string(field)) }"
    }

    /// `1 like`, `3 likes`.
    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    static func mentions(_ edge: ShapeScan.EdgeSet, _ words: String...) -> Bool {
        let text = label(edge.place).lowercased()
        return words.contains { text.contains($0) }
    }

    mutating func findLikes() {
        let truths = edges(from: { self.isPost($0) }, to: { self.isUser($0) })
        guard let truth = truths.first(where: { Self.mentions($0, "like") }) ?? truths.first else { return }
        likes = truth
    }

    mutating func findFollows() {
        let sets = edges(from: { self.isUser($0) }, to: { self.isUser($0) })
        guard !sets.isEmpty else { return }
        follows =
            sets.first { Self.mentions($0, "following", "follows") && !Self.mentions($0, "followers") }
            ?? sets.first { !Self.mentions($0, "follower") } ?? sets.first
    }

    mutating func findComments() {
        guard posts != nil else { return }
        var found: [(ShapeScan.RecordSet, String, Int)] = []
        for set in scan.records where Self.captures(set.place) == 2 && set.place != posts?.place {
            let parents = set.items.prefix(2_000).map { $0.keys[$0.keys.count - 2] }
            guard isPost(parents), !isUser(set.items.prefix(2_000).map { $0.keys.last! }) else { continue }
            guard let user = set.fields.first(where: { isUser(Self.strings(set, $0).prefix(2_000)) }) else {
                continue
            }
            // Comments have a text and are called so; other rows under posts (events, reports) may name users too.
            let score =
                (Self.field(set, ["text", "comment", "body", "content", "message"]) != nil ? 2 : 0)
                + (Self.label(set.place).lowercased().contains("comment") ? 1 : 0)
            found.append((set, user, score))
        }
        if let best = found.max(by: { $0.2 < $1.2 }) { comments = (best.0, best.1) }
    }

    // MARK: - Users and posts

    /// The first field of `set` whose name is one of `names`, in that order of preference.
    static func field(_ set: ShapeScan.RecordSet, _ names: [String]) -> String? {
        for name in names {
            if let field = set.fields.first(where: { normalized($0) == name }) { return field }
        }
        return nil
    }

    mutating func writeUsers() {
        guard let users else { return }
        var section = SchemaText.Section("[users]", comments: ["\(Self.plural(users.items.count, "record"))."])
        section.set("path", SchemaText.string(Self.pattern(users.place, ["user"])))
        if format == .parse { section.set("key", SchemaText.string("objectId")) }
        if let key = keyFields[Self.label(users.place)] {
            section.set("key", SchemaText.string(key), comment: "key: other records name a user by \(key).")
        }
        let pairs: [(String, [String])] = [
            ("username", ["username", "handle", "displayname", "name"]),
            ("name", ["name", "fullname", "displayname"]),
            ("profile_image_url", ["profileimageurl", "photourl", "profileimg", "profilepicture", "avatar", "photo"]),
        ]
        for (key, names) in pairs {
            guard let field = Self.field(users, names) else { continue }
            userFields[key] = field
            section.set(key, SchemaText.string(field))
        }
        schema.sections.append(section)
    }

    mutating func writePosts() {
        guard let posts else { return }
        var section = SchemaText.Section("[posts]", comments: ["\(Self.plural(posts.items.count, "record"))."])
        let nested = posterField == "{poster}"
        section.set("path", SchemaText.string(Self.pattern(posts.place, nested ? ["poster", "post"] : ["post"])))
        if format == .parse { section.set("key", SchemaText.string("objectId")) }
        if let key = keyFields[Self.label(posts.place)] {
            section.set("key", SchemaText.string(key), comment: "key: other records name a post by \(key).")
        }
        if let field = posterField, !nested {
            var evidence = Evidence()
            for item in posts.items {
                evidence.add(
                    path: (item.path + [field]).joined(separator: "/"),
                    agrees: users?.keys.contains(Self.idString(item.value.at(field)) ?? "") ?? false)
            }
            section.set(
                "poster", SchemaText.string(field),
                comment: "poster: names a user in \(evidence.agree) of \(evidence.rows) posts.")
            postFields["poster"] = field
        }
        if let field = Self.field(
            posts, ["createdat", "created", "timestamp", "creationdate", "postdate", "date", "time"])
        {
            if let unit = Self.unit(posts.items.compactMap { $0.value.at(field) }) {
                section.set("created_at", "{ field = \(SchemaText.string(field)), unit = \(SchemaText.string(unit)) }")
                postFields["created_at"] = field
            }
        }
        let pairs: [(String, [String])] = [
            ("caption", ["caption", "text", "body", "description", "content", "message"]),
            ("image_url", ["imageurl", "url", "photourl", "image", "photo", "mediaurl"]),
            ("image_height", ["imageheight"]),
        ]
        for (key, names) in pairs {
            guard let field = Self.field(posts, names), field != postFields["poster"] else { continue }
            postFields[key] = field
            section.set(key, SchemaText.string(field))
        }
        if nested {
            // A copy of the owner's uid in the post: the poster_uid rule checks it against the path.
            for field in posts.fields {
                var evidence = Evidence()
                for item in posts.items {
                    evidence.add(
                        path: (item.path + [field]).joined(separator: "/"), stored: item.value.at(field),
                        expected: .string(item.keys[item.keys.count - 2]))
                }
                guard evidence.rows > 0, evidence.agree > 0 else { continue }
                let verdict = evidence.verdict(options)
                judge("posts.\(field) as a copy of the owner's uid (poster_uid)", evidence, verdict)
                if verdict.kept {
                    section.set(
                        "poster_uid", SchemaText.string(field),
                        comment: "poster_uid: " + Self.comments(evidence, verdict).joined(separator: " "))
                    postFields["poster_uid"] = field
                    break
                }
            }
        }
        schema.sections.append(section)
        findPostsMirror()
    }

    /// `s`, `ms`, `us` or `iso8601`, from the values' kind and size.
    static func unit(_ values: [JSONValue]) -> String? {
        let numbers = values.compactMap { $0.numberValue?.double }
        if numbers.count * 2 > values.count, let median = numbers.sorted().dropFirst(numbers.count / 2).first {
            if median > 1e14 { return "us" }
            if median > 1e11 { return "ms" }
            if median > 1e8 { return "s" }
            return nil
        }
        let strings = values.compactMap(\.stringValue)
        let iso = strings.filter { text in
            let bytes = Array(text.utf8)
            return bytes.count >= 19 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
                && bytes[10] == UInt8(ascii: "T")
        }
        return !strings.isEmpty && iso.count * 10 >= strings.count * 9 ? "iso8601" : nil
    }

    /// Each user's list of their own posts: an edge set from users to posts whose every pair is a post under its
    /// owner (the posts' mirror, checked by post-mirror-missing).
    mutating func findPostsMirror() {
        guard posts != nil, !posterOf.isEmpty else { return }
        for edge in edges(from: { self.isUser($0) }, to: { self.isPost($0) }) where edge.storage != .array {
            var evidence = Evidence()
            var listed = Set<String>()
            for pair in edge.pairs {
                listed.insert(pair.to)
                evidence.add(path: pair.path.joined(separator: "/"), agrees: posterOf[pair.to] == pair.from)
            }
            // A post missing from its owner's list also disagrees.
            var missing = 0
            for item in posts?.items ?? [] where posterOf[item.keys.last!] != nil && !listed.contains(item.keys.last!) {
                missing += 1
                evidence.add(path: item.path.joined(separator: "/"), agrees: false)
            }
            let verdict = evidence.verdict(options, named: Self.mentions(edge, "post"))
            judge("\(Self.label(edge.place)) as each user's list of their posts (a mirror of posts)", evidence, verdict)
            guard verdict.kept else { continue }
            let index = schema.sections.count - 1
            schema.sections[index].set(
                "mirror", SchemaText.string(Self.edgePattern(edge, "user", "post")),
                comment: "mirror: " + Self.comments(evidence, verdict).joined(separator: " ")
                    + (missing > 0 ? " \(missing) posts are missing from their owner's list." : ""))
            mirrored.insert(Self.label(edge.place))
            return
        }
    }

    mutating func writeLikes() {
        guard let likes else { return }
        var section = SchemaText.Section(
            "[likes]", comments: ["\(Self.plural(likes.pairs.count, "like")), from posts to the users who like them."])
        section.set("path", SchemaText.string(Self.edgePattern(likes, "post", "user")))
        if likes.storage == .array { section.set("user", SchemaText.string(".")) }
        if let field = likes.field { section.set("user", SchemaText.string(field)) }
        for mirror in edges(from: { self.isUser($0) }, to: { self.isPost($0) })
        where !mirrored.contains(Self.label(mirror.place)) {
            let evidence = Self.transposed(likes, mirror)
            let verdict = evidence.verdict(options)
            judge("\(Self.label(mirror.place)) as the mirror of the likes", evidence, verdict)
            guard verdict.kept, mirror.storage != .array, mirror.field == nil else { continue }
            section.set(
                "mirror", SchemaText.string(Self.edgePattern(mirror, "user", "post")),
                comment: "mirror: " + Self.comments(evidence, verdict).joined(separator: " "))
            mirrored.insert(Self.label(mirror.place))
            break
        }
        schema.sections.append(section)
        setEdgeValue(likes)
    }

    /// `edge_value = 1` when the app stores edges as 1.
    mutating func setEdgeValue(_ edge: ShapeScan.EdgeSet) {
        guard edge.storage == .keys, !schema.top.contains(where: { $0.key == "edge_value" }) else { return }
        let values = edgeValues(edge)
        if !values.isEmpty, values.allSatisfy({ $0 == .number(JSONNumber(Int64(1))) }) {
            schema.top.append(("edge_value", "1"))
        }
    }

    func edgeValues(_ edge: ShapeScan.EdgeSet) -> [JSONValue] {
        edge.pairs.prefix(100).compactMap { pair in
            var value: JSONValue? = root
            for key in pair.path { value = value?[key] }
            return value
        }
    }

    mutating func writeFollows() {
        guard let follows else { return }
        var section = SchemaText.Section("[follows]", comments: ["\(Self.plural(follows.pairs.count, "follow"))."])
        let reversed = Self.mentions(follows, "follower")
        section.set(
            "following", Self.edgeValue(follows, reversed ? "target" : "user", reversed ? "user" : "target"))
        for other in edges(from: { self.isUser($0) }, to: { self.isUser($0) }) where other.place != follows.place {
            let evidence = Self.transposed(follows, other)
            let verdict = evidence.verdict(options)
            judge("\(Self.label(other.place)) as the mirror of \(Self.label(follows.place))", evidence, verdict)
            guard verdict.kept, other.storage != .array else { continue }
            section.set(
                "followers", Self.edgeValue(other, reversed ? "user" : "target", reversed ? "target" : "user"),
                comment: "followers: " + Self.comments(evidence, verdict).joined(separator: " "))
            mirrored.insert(Self.label(other.place))
            followsMirror = other
            break
        }
        mirrored.insert(Self.label(follows.place))
        schema.sections.append(section)
        setEdgeValue(follows)
    }

    /// The stored timeline: an edge set from users to posts that holds each user's own posts and the posts of
    /// those they follow.
    mutating func findTimeline() {
        guard posts != nil else { return }
        var followed: [String: Set<String>] = [:]
        if let follows {
            let reversed = Self.mentions(follows, "follower")
            for pair in follows.pairs {
                if reversed {
                    followed[pair.to, default: []].insert(pair.from)
                } else {
                    followed[pair.from, default: []].insert(pair.to)
                }
            }
        }
        var postsBy: [String: Set<String>] = [:]
        for (post, owner) in posterOf { postsBy[owner, default: []].insert(post) }
        for edge in edges(from: { self.isUser($0) }, to: { self.isPost($0) })
        where !mirrored.contains(Self.label(edge.place)) && edge.place != likes?.place {
            var stored: [String: Set<String>] = [:]
            for pair in edge.pairs { stored[pair.from, default: []].insert(pair.to) }
            var evidence = Evidence()
            // In key order: the counterexamples quoted are the same in every run.
            for (user, entries) in stored.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                var derived = postsBy[user] ?? []
                for target in followed[user] ?? [] { derived.formUnion(postsBy[target] ?? []) }
                for post in entries.union(derived).sorted() {
                    evidence.add(
                        path: (Array(edge.place.prefix(1).compactMap { $0 }) + [user, post]).joined(separator: "/"),
                        agrees: entries.contains(post) && derived.contains(post))
                }
            }
            let verdict = evidence.verdict(options, named: Self.mentions(edge, "feed", "timeline"))
            judge("\(Self.label(edge.place)) as the stored timelines (own and followed posts)", evidence, verdict)
            guard verdict.kept else { continue }
            var section = SchemaText.Section("[timeline]", comments: Self.comments(evidence, verdict))
            section.set("path", SchemaText.string(Self.edgePattern(edge, "user", "post")))
            if edge.storage == .array { section.set("post", SchemaText.string(".")) }
            if let field = edge.field { section.set("post", SchemaText.string(field)) }
            if edge.storage == .rows || edge.field != nil,
                let rows = scan.records.first(where: { $0.place == edge.place })
            {
                // The row's post: its key, or the field naming it.
                let post = { (item: ShapeScan.Item) in
                    edge.field.flatMap { item.value[$0]?.stringValue } ?? item.keys.last!
                }
                for field in rows.fields where field != edge.field {
                    var poster = Evidence()
                    for item in rows.items {
                        poster.add(
                            path: (item.path + [field]).joined(separator: "/"), stored: item.value.at(field),
                            expected: posterOf[post(item)].map(JSONValue.string))
                    }
                    guard poster.agree > 0 else { continue }
                    let kept = poster.verdict(options)
                    judge("\(Self.label(edge.place))/\(field) as the post's owner", poster, kept)
                    guard kept.kept else { continue }
                    section.set(
                        "poster", SchemaText.string(field),
                        comment: "poster: " + Self.comments(poster, kept).joined(separator: " "))
                    timelinePoster = field
                    break
                }
            }
            schema.sections.append(section)
            mirrored.insert(Self.label(edge.place))
            timelinePlace = edge.place
            timelineField = edge.field
            return
        }
    }

    mutating func writeComments() {
        guard let comments else { return }
        var section = SchemaText.Section(
            "[comments]", comments: ["\(Self.plural(comments.set.items.count, "comment"))."])
        section.set("path", SchemaText.string(Self.pattern(comments.set.place, ["post", "id"])))
        section.set("user", SchemaText.string(comments.user))
        if let text = Self.field(comments.set, ["text", "comment", "body", "content", "message"]) {
            section.set("text", SchemaText.string(text))
        }
        if let field = Self.field(comments.set, ["createdat", "created", "timestamp", "date", "time"]),
            let unit = Self.unit(comments.set.items.compactMap { $0.value.at(field) })
        {
            section.set("created_at", "{ field = \(SchemaText.string(field)), unit = \(SchemaText.string(unit)) }")
        }
        schema.sections.append(section)
    }
}
