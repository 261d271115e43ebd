import FanoutJSON

/// Collections beside users and posts (a forum's threads, a board app's boards): each becomes `[records.NAME]`
/// when other records name its keys or it names theirs, and the fields that name another collection's records
/// become references, the groups of counters per record and of mirrors, and the keys of copies
/// (docs/layouts.md "Records of any collection").
extension Inference {
    /// A collection of records the schema places as `[records.NAME]`.
    struct OtherRecords {
        let set: ShapeScan.RecordSet
        /// Its top-level key (`threads`), the records' name in declarations.
        let name: String
        /// The capture of a record's key in patterns (`thread`).
        let capture: String
        /// Fields naming records of another collection, with that collection's name (`forum` → `forums`).
        var links: [(field: String, target: String)] = []
        /// Fields named in its `fields` table: the links, and the fields copies copy.
        var fields: [(String, String)] = []
    }

    /// Names declarations may not use as a record collection's: the relations'.
    static let relationNames: Set<String> = ["users", "posts", "likes", "follows", "comments", "timeline", "flags"]

    /// `threads` → `thread`, `categories` → `category`; a name the patterns reserve gets `Key` appended.
    static func singular(_ name: String) -> String {
        var word = name
        if word.hasSuffix("ies"), word.count > 3 {
            word = String(word.dropLast(3)) + "y"
        } else if word.hasSuffix("s"), word.count > 1 {
            word.removeLast()
        }
        word = String(word.filter { $0.isLetter || $0.isNumber || $0 == "_" })
        if word.isEmpty || ["user", "post", "poster", "target", "id"].contains(word) { word += "Key" }
        return word
    }

    /// A record of collection `name` in a sentence: `user`, `post`, `thread`.
    static func noun(_ name: String) -> String {
        switch name {
        case "users": "user"
        case "posts": "post"
        default: singular(name)
        }
    }

    /// The record set a collection name stands for: the users, the posts, or other records.
    func collection(_ name: String) -> ShapeScan.RecordSet? {
        switch name {
        case "users": users
        case "posts": posts
        default: others.first { $0.name == name }?.set
        }
    }

    /// A field name usable in a `fields` table and as a capture (`forum`, `board_id`).
    static func fieldName(_ field: String) -> String? {
        let valid =
            !field.isEmpty && !field.contains("/")
            && field.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return valid && !["user", "post", "poster", "target", "id"].contains(field) ? field : nil
    }

    /// Finds the other collections and their links; records beside them that neither name nor are named by
    /// another collection are left out (a settings object, a log).
    mutating func findRecords() {
        let taken = [users?.place, posts?.place, comments?.set.place, timelinePlace].compactMap { $0 }
        var candidates: [OtherRecords] = []
        for set in scan.records where set.place.count == 2 && set.place[1] == nil && !taken.contains(set.place) {
            guard let name = set.place[0], !Self.relationNames.contains(name) else { continue }
            candidates.append(OtherRecords(set: set, name: name, capture: Self.singular(name)))
        }
        others = candidates
        for index in others.indices {
            others[index].links = links(of: others[index].set, besides: others[index].name)
        }
        postLinks = posts.map { links(of: $0, besides: "posts").filter { $0.target != "users" } } ?? []
        let named = Set(others.flatMap { $0.links.map(\.target) } + postLinks.map(\.target))
        others.removeAll { !named.contains($0.name) && $0.links.isEmpty }
        for index in others.indices { others[index].fields = others[index].links.map { ($0.field, $0.field) } }
    }

    /// The fields of `set` most of whose values name records of one collection (not `besides`).
    private func links(of set: ShapeScan.RecordSet, besides own: String) -> [(field: String, target: String)] {
        let targets = ["users", "posts"] + others.map(\.name)
        var found: [(field: String, target: String)] = []
        for field in set.fields {
            guard Self.fieldName(field) != nil, field != posterField || own != "posts" else { continue }
            let values = Self.strings(set, field).prefix(2_000)
            guard !values.isEmpty else { continue }
            let best = targets.filter { $0 != own }.map { ($0, Self.overlap(values, collection($0))) }
                .max { $0.1 < $1.1 }
            if let best, best.1 >= 0.5 { found.append((field, best.0)) }
        }
        return found
    }

    /// `[records.NAME]` for each collection found, with its fields, placed at `index` among the sections.
    mutating func writeRecords(at index: Int) {
        for records in others.reversed() {
            var section = SchemaText.Section(
                "[records.\(SchemaText.key(records.name))]",
                comments: ["\(Self.plural(records.set.items.count, "record"))."])
            section.set("path", SchemaText.string(Self.pattern(records.set.place, [records.capture])))
            if !records.fields.isEmpty { section.set("fields", SchemaText.table(records.fields)) }
            schema.sections.insert(section, at: index)
        }
    }

    /// The record sets whose fields name other collections' records: each other collection, then the posts, with
    /// the names of their patterns' captures.
    var linkedSets:
        [(set: ShapeScan.RecordSet, name: String, captures: [String], links: [(field: String, target: String)])]
    {
        others.map { ($0.set, $0.name, [$0.capture], $0.links) }
            + (posts.map { [($0, "posts", posterField == "{poster}" ? ["poster", "post"] : ["post"], postLinks)] } ?? [])
    }

    /// A reference for each link: the field names an existing record of its collection.
    mutating func findReferences() {
        for source in linkedSets {
            for (field, target) in source.links {
                guard let records = collection(target) else { continue }
                var evidence = Evidence()
                for item in source.set.items {
                    guard let value = Self.idString(item.value.at(field)) else { continue }
                    evidence.add(
                        path: (item.path + [field]).joined(separator: "/"), agrees: records.keys.contains(value))
                }
                let verdict = evidence.verdict(options)
                judge("\(source.name).\(field) as a reference to \(target)", evidence, verdict)
                guard verdict.kept else { continue }
                var section = SchemaText.Section(
                    "[[references]]",
                    comments: ["Names an existing \(Self.noun(target)) in \(evidence.agree) of \(evidence.rows) rows."]
                        + (evidence.counterexamples.isEmpty
                            ? [] : ["Disagrees at " + evidence.counterexamples.joined(separator: ", ") + "."]))
                section.set(
                    "name", SchemaText.string(declarationName("\(Self.noun(source.name))-\(Self.kebab(field))")))
                section.set("at", SchemaText.string(Self.pattern(source.set.place, source.captures) + "/" + field))
                section.set("to", SchemaText.string(target))
                schema.sections.append(section)
            }
        }
    }

    /// The tallies of records that name a record of `target` in a field: what a counter stored in `target`'s
    /// records (or, for `users`, in the users) may count.
    func recordTallies(of target: String) -> [Tally] {
        var found: [Tally] = []
        for source in linkedSets {
            for link in source.links where link.target == target {
                let singular = Self.noun(source.name)
                var tally = Tally(
                    counts: source.name, per: link.field, what: "the \(source.name) naming it in \(link.field)",
                    word: Self.normalized(singular))
                for item in source.set.items {
                    if let key = Self.idString(item.value.at(link.field)) { tally.byKey[key, default: 0] += 1 }
                }
                found.append(tally)
            }
        }
        return found
    }

    /// Counters stored in other records (a forum's `threadCount`); the users' counters of records naming them
    /// (`users/{author}/threadCount`) are among the users' tallies.
    mutating func findRecordCounters() {
        for target in others.map({ (set: $0.set, name: $0.name) }) {
            let tallies = recordTallies(of: target.name)
            guard !tallies.isEmpty else { continue }
            let keys = target.set.items.map { $0.keys.last! }
            let numeric = target.set.fields.filter { field in
                target.set.items.prefix(200).contains { $0.value.at(field)?.numberValue != nil }
            }
            for field in numeric {
                guard let (tally, evidence, named) = bestTally(tallies, for: field, of: target.set, keys: keys) else {
                    continue
                }
                let verdict = evidence.verdict(options, named: named, counter: true)
                judge(
                    "\(target.name).\(field) as a count of \(tally.what) (\(tally.counts) per \(tally.per))", evidence,
                    verdict)
                guard verdict.kept else { continue }
                var section = SchemaText.Section("[[counters]]", comments: Self.comments(evidence, verdict))
                section.set(
                    "name", SchemaText.string(declarationName("\(Self.noun(target.name))-\(Self.kebab(field))")))
                section.set("at", SchemaText.string(Self.pattern(target.set.place, [tally.per]) + "/" + field))
                section.set("counts", SchemaText.string(tally.counts))
                section.set("per", SchemaText.string(tally.per))
                schema.sections.append(section)
            }
        }
    }

    /// Numbers of a top-level object of scalars (`stats/postCount`) that count a whole collection: declared when the
    /// name says which (a single number cannot show it otherwise), with whether it equals the count.
    mutating func findGlobalCounters() {
        var counted: [(counts: String, word: String, count: Int)] = []
        if let users { counted.append(("users", "user", users.items.count)) }
        if let posts { counted.append(("posts", "post", posts.items.count)) }
        if let likes {
            let word = Self.normalized(Self.singular(likes.place.compactMap { $0 }.last ?? "likes"))
            counted.append(("likes", word, Set(likes.pairs.map { [$0.from, $0.to] }).count))
        }
        if let comments { counted.append(("comments", "comment", comments.set.items.count)) }
        for records in others {
            counted.append((records.name, Self.normalized(Self.singular(records.name)), records.set.items.count))
        }
        for (key, value) in root.objectMembers ?? [] {
            guard let members = value.objectMembers, !members.isEmpty,
                members.allSatisfy({ $0.value.numberValue != nil })
            else { continue }
            for (field, number) in members {
                let name = Self.normalized(field)
                guard let match = counted.first(where: { name.contains($0.word) }) else { continue }
                let stored = number.numberValue?.int64
                let agrees = stored == Int64(match.count)
                let what = "\(key)/\(field) as the count of all \(match.counts)"
                explanations.append(
                    "\(what): declared; its name says \(match.counts), it stores \(stored.map(String.init) ?? "\(number)") "
                        + "and the export has \(match.count)")
                var section = SchemaText.Section(
                    "[[counters]]",
                    comments: [
                        agrees
                            ? "Equals the \(match.count) \(match.counts) of the export, as its name says."
                            : "Its name says \(match.counts), but it stores \(stored.map(String.init) ?? "a non-integer") "
                                + "and the export has \(match.count): drift, or a count of something else; review."
                    ])
                section.set("name", SchemaText.string(declarationName(Self.kebab("\(key)-\(field)"))))
                section.set("at", SchemaText.string("\(key)/\(field)"))
                section.set("counts", SchemaText.string(match.counts))
                schema.sections.append(section)
            }
        }
    }

    /// Each record's list of the records naming it (`forums/{forum}/threads/{thread}`): an edge set from one
    /// collection's keys to another's whose pairs are the links.
    mutating func findRecordMirrors() {
        for source in others {
            for link in source.links {
                guard others.contains(where: { $0.name == link.target }) else { continue }
                var linked = Set<String>()
                for item in source.set.items {
                    if let key = Self.idString(item.value.at(link.field)) {
                        linked.insert(key + "\u{0}" + item.keys.last!)
                    }
                }
                for edge in scan.edges where edge.storage == .keys && Self.captures(edge.place) == 2 {
                    guard edge.place.first == .some(link.target) else { continue }
                    var evidence = Evidence()
                    var listed = Set<String>()
                    for pair in edge.pairs {
                        listed.insert(pair.from + "\u{0}" + pair.to)
                        evidence.add(
                            path: pair.path.joined(separator: "/"),
                            agrees: linked.contains(pair.from + "\u{0}" + pair.to))
                    }
                    for pair in linked where !listed.contains(pair) {
                        let parts = pair.split(separator: "\u{0}").map(String.init)
                        evidence.add(path: "\(link.target)/\(parts[0])/…/\(parts[1])", agrees: false)
                    }
                    guard evidence.agree > 0 else { continue }
                    let verdict = evidence.verdict(options)
                    let label = Self.label(edge.place)
                    judge("\(label) as a mirror of \(source.name) grouped by \(link.field)", evidence, verdict)
                    guard verdict.kept else { continue }
                    mirrored.insert(label)
                    var section = SchemaText.Section("[[mirrors]]", comments: Self.comments(evidence, verdict))
                    section.set(
                        "name", SchemaText.string(declarationName("\(Self.singular(link.target))-\(source.name)")))
                    section.set("of", SchemaText.string(source.name))
                    section.set("at", SchemaText.string(Self.pattern(edge.place, [link.field, source.capture])))
                    schema.sections.append(section)
                }
            }
        }
    }
}
