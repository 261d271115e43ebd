import FanoutJSON

/// Counters and copies: every number that could count a relation per key, and every field that could copy a
/// field of the record a key names, each tried against the data and declared when its rows agree.
extension Inference {
    /// `commentCount` → `comment-count`.
    static func kebab(_ field: String) -> String {
        var out = ""
        for character in field {
            if character.isUppercase, !out.isEmpty, out.last != "-" { out.append("-") }
            if character.isLetter || character.isNumber {
                out.append(Character(character.lowercased()))
            } else if !out.isEmpty, out.last != "-" {
                out.append("-")
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "field" : out
    }

    /// A declaration name not yet taken and not a built-in rule's.
    mutating func declarationName(_ base: String) -> String {
        var name = base, n = 2
        while declaredNames.contains(name) || Self.builtInNames.contains(name) {
            name = "\(base)-\(n)"
            n += 1
        }
        declaredNames.insert(name)
        return name
    }

    static let builtInNames: Set<String> = [
        "like-count-mismatch", "like-count-negative", "like-unknown-user", "like-unknown-post", "like-mirror-missing",
        "like-duplicate", "poster-copy-stale", "poster-copy-uid", "post-unknown-poster", "post-field",
        "follow-mirror-missing", "follow-unknown-user", "follow-self", "timeline-missing", "timeline-stale",
        "timeline-unknown-post", "timeline-poster", "key-invalid", "push-id-time", "post-mirror-missing",
        "post-flagged", "comment-unknown-user", "comment-unknown-post",
    ]

    /// A relation counted per key of one record set.
    struct Tally {
        let counts: String
        let per: String
        let what: String
        /// The word a field counting it has in its name (`likeCount`, `followersCount`).
        let word: String
        var byKey: [String: Int] = [:]
    }

    func tallies(onUsers: Bool) -> [Tally] {
        var found: [Tally] = []
        if onUsers {
            if let follows {
                let reversed = Self.mentions(follows, "follower")
                var following = Tally(counts: "follows", per: "user", what: "the users they follow", word: "following")
                var followers = Tally(counts: "follows", per: "target", what: "their followers", word: "follower")
                for pair in Set(follows.pairs.map { [$0.from, $0.to] }) where pair[0] != pair[1] {
                    let (user, target) = reversed ? (pair[1], pair[0]) : (pair[0], pair[1])
                    following.byKey[user, default: 0] += 1
                    followers.byKey[target, default: 0] += 1
                }
                found += [following, followers]
            }
            if !posterOf.isEmpty {
                // Named like the posts' collection: a `tweetCount` counts tweets.
                let word = Self.normalized(Self.singular(posts?.place.first.flatMap { $0 } ?? "posts"))
                var tally = Tally(counts: "posts", per: "poster", what: "their posts", word: word)
                for (_, owner) in posterOf { tally.byKey[owner, default: 0] += 1 }
                found.append(tally)
            }
            found += recordTallies(of: "users")
        } else {
            if let likes {
                var tally = Tally(counts: "likes", per: "post", what: "its likes", word: "like")
                for pair in Set(likes.pairs.map { [$0.from, $0.to] }) { tally.byKey[pair[0], default: 0] += 1 }
                found.append(tally)
            }
            if let comments {
                var tally = Tally(counts: "comments", per: "post", what: "its comments", word: "comment")
                for item in comments.set.items { tally.byKey[item.keys[item.keys.count - 2], default: 0] += 1 }
                found.append(tally)
            }
        }
        return found
    }

    /// The tally the numbers at `field` of `set`'s records (keyed `keys`) fit best, with the evidence and whether
    /// the field's name names it: the count the name names, when most rows fit it; else the one most rows fit.
    func bestTally(_ tallies: [Tally], for field: String, of set: ShapeScan.RecordSet, keys: [String]) -> (
        Tally, Evidence, Bool
    )? {
        let hint = Self.normalized(field)
        var best: (Tally, Evidence, Bool)?
        for tally in tallies {
            var evidence = Evidence()
            for (index, item) in set.items.enumerated() {
                let key = keys[index]
                let other = keys.count > 1 ? tally.byKey[keys[(index + 1) % keys.count]] ?? 0 : nil
                evidence.add(
                    path: (item.path + [field]).joined(separator: "/"), stored: item.value.at(field),
                    count: tally.byKey[key] ?? 0, other: other)
            }
            let named = hint.contains(tally.word) && evidence.agree * 2 >= evidence.rows && evidence.agree > 0
            let rank = (named ? 1 : 0, evidence.agree)
            if let current = best, (current.2 ? 1 : 0, current.1.agree) >= rank { continue }
            best = (tally, evidence, named)
        }
        return best
    }

    mutating func findCounters() {
        for onUsers in [true, false] {
            guard let set = onUsers ? users : posts else { continue }
            let tallies = tallies(onUsers: onUsers)
            guard !tallies.isEmpty else { continue }
            let keys = set.items.map { $0.keys.last! }
            let numeric = set.fields.filter { field in
                set.items.prefix(200).contains { $0.value.at(field)?.numberValue != nil }
                    && field != postFields["created_at"] && field != postFields["image_height"]
            }
            for field in numeric {
                guard let (tally, evidence, named) = bestTally(tallies, for: field, of: set, keys: keys) else {
                    continue
                }
                let verdict = evidence.verdict(options, named: named, counter: true)
                let owner = onUsers ? "users" : "posts"
                judge(
                    "\(owner).\(field) as a count of \(tally.what) (\(tally.counts) per \(tally.per))", evidence,
                    verdict)
                guard verdict.kept else { continue }
                let comments = Self.comments(evidence, verdict)
                if !onUsers, tally.counts == "likes",
                    let index = schema.sections.firstIndex(where: { $0.header == "[posts]" }),
                    !schema.sections[index].entries.contains(where: { $0.key == "like_count" })
                {
                    schema.sections[index].set(
                        "like_count", SchemaText.string(field),
                        comment: "like_count: " + comments.joined(separator: " "))
                    continue
                }
                var section = SchemaText.Section("[[counters]]", comments: comments)
                section.set("name", SchemaText.string(declarationName(Self.kebab(field))))
                let names: [String]
                if onUsers {
                    names = [tally.per]
                } else {
                    names = posterField == "{poster}" ? ["poster", "post"] : ["post"]
                }
                section.set("at", SchemaText.string(Self.pattern(set.place, names) + "/" + field))
                section.set("counts", SchemaText.string(tally.counts))
                section.set("per", SchemaText.string(tally.per))
                schema.sections.append(section)
            }
        }
    }

    // MARK: - Copies

    /// One kind of row that may copy fields of the records its key names.
    struct CopySource {
        let rows: ShapeScan.RecordSet
        let describe: String
        /// The row's names for the pattern's captures.
        let captures: [String]
        /// The key of the record it copies from, and how the schema names that key (`{post}` or a field).
        let via: String
        let key: (ShapeScan.Item) -> String?
        let skip: Set<String>
    }

    mutating func findCopies() {
        guard let users else { return }
        var sources: [(CopySource, ShapeScan.RecordSet, String)] = []
        if let posts, let posterField {
            let nested = posterField == "{poster}"
            let owner: (ShapeScan.Item) -> String? = { item in
                nested ? item.keys[item.keys.count - 2] : Self.idString(item.value.at(posterField))
            }
            let skip = Set([posterField, postFields["poster_uid"] ?? ""])
            sources.append(
                (
                    CopySource(
                        rows: posts, describe: "posts", captures: nested ? ["poster", "post"] : ["post"],
                        via: nested ? "poster" : posterField, key: owner, skip: skip), users, "users"
                ))
        }
        if let comments {
            let field = comments.user
            sources.append(
                (
                    CopySource(
                        rows: comments.set, describe: "comments", captures: ["post", "id"], via: field,
                        key: { Self.idString($0.value.at(field)) }, skip: [field]), users, "users"
                ))
        }
        if let posts, let timelinePlace, let rows = scan.records.first(where: { $0.place == timelinePlace }) {
            sources.append(
                (
                    CopySource(
                        rows: rows, describe: "timeline rows",
                        captures: ["user", timelineField == nil ? "post" : "id"],
                        via: timelineField ?? "post",
                        key: { [timelineField] item in
                            timelineField.map { item.value[$0]?.stringValue } ?? item.keys.last
                        },
                        skip: Set([timelinePoster, timelineField].compactMap { $0 })), posts, "posts"
                ))
        }
        // Rows keyed by IDs of their own copy fields of the user their field names (a following row's name),
        // timeline rows those of the post's author.
        let reversed = follows.map { Self.mentions($0, "follower") } ?? false
        for (edge, from) in [(follows, reversed ? "target" : "user"), (followsMirror, reversed ? "user" : "target")] {
            guard let edge, let field = edge.field, let rows = scan.records.first(where: { $0.place == edge.place })
            else { continue }
            sources.append(
                (
                    CopySource(
                        rows: rows, describe: edge.place.compactMap { $0 }.first ?? "follows", captures: [from, "id"],
                        via: field, key: { Self.idString($0.value.at(field)) }, skip: [field]), users, "users"
                ))
        }
        if let timelinePoster, let timelinePlace, let rows = scan.records.first(where: { $0.place == timelinePlace }) {
            sources.append(
                (
                    CopySource(
                        rows: rows, describe: "timeline rows",
                        captures: ["user", timelineField == nil ? "post" : "id"],
                        via: timelinePoster, key: { Self.idString($0.value.at(timelinePoster)) },
                        skip: Set([timelinePoster, timelineField].compactMap { $0 })), users, "users"
                ))
        }
        // Other records and posts copy fields of the records their links name (a thread's forum's title).
        for (rows, name, captures, links) in linkedSets {
            for link in links where link.target != "users" && link.target != "posts" {
                guard let target = collection(link.target) else { continue }
                let field = link.field
                sources.append(
                    (
                        CopySource(
                            rows: rows, describe: name, captures: captures, via: field,
                            key: { Self.idString($0.value.at(field)) },
                            skip: Set(links.map(\.field) + [posterField ?? ""])), target, link.target
                    ))
            }
        }
        for (source, target, relation) in sources { findCopies(source, of: target, relation) }
    }

    private mutating func findCopies(_ source: CopySource, of target: ShapeScan.RecordSet, _ relation: String) {
        var byKey: [String: JSONValue] = [:]
        for item in target.items { byKey[item.keys.last!] = item.value }
        let sortedKeys = byKey.keys.sorted()
        var next: [String: String] = [:]
        for (index, key) in sortedKeys.enumerated() where sortedKeys.count > 1 {
            next[key] = sortedKeys[(index + 1) % sortedKeys.count]
        }
        let targetFields = target.fields.filter { relation != "posts" || $0 != posterField }
        for field in source.rows.fields where !source.skip.contains(field) {
            // The candidates are ranked on a sample of rows, then the best one is measured on all of them.
            var best: (String, Int)?
            for original in targetFields {
                var agree = 0
                for item in source.rows.items.prefix(5_000) {
                    guard let key = source.key(item), let record = byKey[key] else { continue }
                    if let stored = item.value.at(field), stored == record.at(original), !stored.isNull { agree += 1 }
                }
                if agree > (best?.1 ?? 0) { best = (original, agree) }
            }
            guard let original = best?.0 else { continue }
            var evidence = Evidence()
            for item in source.rows.items {
                guard let key = source.key(item), let record = byKey[key] else { continue }
                evidence.add(
                    path: (item.path + [field]).joined(separator: "/"), stored: item.value.at(field),
                    expected: record.at(original), other: next[key].flatMap { byKey[$0]?.at(original) })
            }
            let fieldName = Self.normalized(Self.lastComponent(field))
            let originalName = Self.normalized(Self.lastComponent(original))
            let named = originalName.count >= 4 && fieldName.contains(originalName)
            let verdict = evidence.verdict(options, named: named)
            let what = "\(source.describe).\(field) as a copy of \(relation).\(original) through \(source.via)"
            judge(what, evidence, verdict)
            guard verdict.kept else { continue }
            declareCopy(source, field: field, relation: relation, original: original, evidence, verdict)
        }
    }

    private mutating func declareCopy(
        _ source: CopySource, field: String, relation: String, original: String, _ evidence: Evidence,
        _ verdict: Verdict
    ) {
        let comments = Self.comments(evidence, verdict)
        // A post's copy of its owner's username is the built-in poster-copy-stale.
        if source.describe == "posts", relation == "users", original == userFields["username"],
            let index = schema.sections.firstIndex(where: { $0.header == "[posts]" }),
            !schema.sections[index].entries.contains(where: { $0.key == "poster_username" })
        {
            schema.sections[index].set(
                "poster_username", SchemaText.string(field),
                comment: "poster_username: " + comments.joined(separator: " "))
            return
        }
        let named = relation == "users" ? userFields : postFields
        var ofName = named.first { $0.value == original }?.key
        if let index = others.firstIndex(where: { $0.name == relation }) {
            let name = original.replacing("/", with: "_")
            ofName = others[index].fields.first { $0.1 == original }?.0
            if ofName == nil {
                others[index].fields.append((name, original))
                ofName = name
            }
        } else if ofName == nil {
            let name = original.replacing("/", with: "_")
            if relation == "users" {
                if !extraUserFields.contains(where: { $0.0 == name }) { extraUserFields.append((name, original)) }
            } else if !extraPostFields.contains(where: { $0.0 == name }) {
                extraPostFields.append((name, original))
            }
            ofName = name
        }
        var section = SchemaText.Section("[[copies]]", comments: comments)
        let singular = source.describe == "timeline rows" ? "timeline" : Self.noun(source.describe)
        section.set("name", SchemaText.string(declarationName("\(singular)-\(Self.kebab(field))")))
        section.set("at", SchemaText.string(Self.pattern(source.rows.place, source.captures) + "/" + field))
        section.set("of", SchemaText.string("\(relation).\(ofName!)"))
        section.set("via", SchemaText.string(source.via))
        schema.sections.append(section)
    }
}
