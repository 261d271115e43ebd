import FanoutJSON

/// `fanout infer`: a schema file proposed from an export's tree, each declaration with its evidence
/// (docs/layouts.md "Inferring a schema").
///
/// It finds the record sets and edge sets (``ShapeScan``), picks the users and the posts, places the relations
/// the built-in rules check (likes, follows, the stored timeline, comments, each mirror), and then tries every
/// counter and copy the data could hold, declaring those whose rows agree (``Evidence``).
package struct Inference {
    package typealias Place = ShapeScan.Place

    var scan: ShapeScan
    let root: JSONValue
    let options: InferOptions
    let format: InferTree.Format
    package internal(set) var schema = SchemaText()
    /// One paragraph per candidate: what was compared, the evidence, the verdict (`--explain`).
    package internal(set) var explanations: [String] = []

    var users: ShapeScan.RecordSet?
    var posts: ShapeScan.RecordSet?
    /// The posts' owner: the capture before the post's key, or a field.
    var posterField: String?
    /// Each post's owner, by post key.
    var posterOf: [String: String] = [:]
    var usersSection: ShapeScan.RecordSet? { users }
    var userFields: [String: String] = [:]
    var postFields: [String: String] = [:]
    var likes: ShapeScan.EdgeSet?
    var follows: ShapeScan.EdgeSet?
    /// The follows' mirror, when one was found.
    var followsMirror: ShapeScan.EdgeSet?
    var comments: (set: ShapeScan.RecordSet, user: String)?
    /// Fields named in `fields = { … }` of users and posts, for copies.
    var extraUserFields: [(String, String)] = []
    var extraPostFields: [(String, String)] = []
    var declaredNames: Set<String> = []
    /// Edge sets already placed (as a relation or a mirror), by label.
    var mirrored: Set<String> = []
    var timelinePlace: Place?
    /// The timeline rows' field naming their post, when rows are keyed by IDs of their own.
    var timelineField: String?
    /// The field each top-level record set is named by, where it is not the stored key.
    var keyFields: [String: String] = [:]
    /// The timeline rows' field naming the post's owner, checked by timeline-poster.
    var timelinePoster: String?
    /// Collections beside users and posts that records name (``findRecords()``).
    var others: [OtherRecords] = []
    /// The posts' fields naming records of another collection (a thread).
    var postLinks: [(field: String, target: String)] = []

    /// Infers a schema named `name` for `tree`.
    package static func run(_ tree: InferTree, source: String, name: String, options: InferOptions) throws(InputError)
        -> Inference
    {
        var inference = Inference(scan: ShapeScan(tree.root), root: tree.root, options: options, format: tree.format)
        try inference.infer(source: source, name: name)
        return inference
    }

    init(scan: ShapeScan, root: JSONValue, options: InferOptions, format: InferTree.Format) {
        self.scan = scan
        self.root = root
        self.options = options
        self.format = format
    }

    // MARK: - Places

    /// `posts/*/*` for messages.
    static func label(_ place: Place) -> String { place.map { $0 ?? "*" }.joined(separator: "/") }

    /// The place as a pattern, its captures named in order.
    static func pattern(_ place: Place, _ names: [String]) -> String {
        var index = 0
        return place.map { segment in
            if let segment { return segment }
            defer { index += 1 }
            return "{\(index < names.count ? names[index] : "k\(index)")}"
        }.joined(separator: "/")
    }

    static func captures(_ place: Place) -> Int { place.filter { $0 == nil }.count }

    /// The fraction of `ids` that are keys of `set`.
    static func overlap(_ ids: some Collection<String>, _ set: ShapeScan.RecordSet?) -> Double {
        guard let set, !ids.isEmpty else { return 0 }
        return Double(ids.filter { set.keys.contains($0) }.count) / Double(ids.count)
    }

    func isUser(_ ids: some Collection<String>) -> Bool { Self.overlap(ids, users) >= 0.5 }
    func isPost(_ ids: some Collection<String>) -> Bool { Self.overlap(ids, posts) >= 0.5 }

    static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    static func lastComponent(_ field: String) -> String {
        field.split(separator: "/").last.map(String.init) ?? field
    }

    /// Field names that make a collection look like users, and posts.
    static let userWords = [
        "username", "name", "displayname", "fullname", "handle", "photourl", "photo", "avatar", "profileimageurl",
        "profileimg", "profilepicture", "email", "bio", "pseudonym",
    ]
    static let postWords = [
        "caption", "text", "body", "description", "title", "content", "timestamp", "createdat", "creationdate",
        "postdate", "date", "url", "imageurl", "image", "photo", "likecount", "likes",
    ]

    static func score(_ set: ShapeScan.RecordSet, words: [String]) -> Int {
        Set(set.fields.map { normalized(lastComponent($0)) }).filter { words.contains($0) }.count
    }

    /// The string values of `field` in `set`'s records, by record.
    static func strings(_ set: ShapeScan.RecordSet, _ field: String) -> [String] {
        set.items.compactMap { item in Self.idString(item.value.at(field)) }
    }

    /// A key's text as a field holds it: a string, or an integer (`postID: 8` names `"8"`).
    static func idString(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let number): return number.int64.map(String.init)
        default: return nil
        }
    }

    // MARK: - The inference

    mutating func infer(source: String, name: String) throws(InputError) {
        schema.preamble = [
            "Proposed by `fanout infer` from the data: review it, then run `fanout check EXPORT --schema THIS_FILE`.",
            "Each declaration says how often the data agrees with it; the candidates it did not declare are listed",
            "at the end with the reason.",
        ]
        schema.top.append(("name", SchemaText.string(name)))
        schema.top.append(("summary", SchemaText.string("\(name): inferred by fanout infer")))
        if format == .parse { schema.top.append(("format", SchemaText.string("parse"))) }
        keyFields = format == .parse ? [:] : scan.rekeyByFields()
        try chooseUsers()
        try choosePosts()
        findLikes()
        findFollows()
        findComments()
        let usersAt = schema.sections.count
        writeUsers()
        let postsAt = schema.sections.count
        writePosts()
        writeLikes()
        writeFollows()
        findTimeline()
        writeComments()
        findRecords()
        let recordsAt = schema.sections.count
        findCounters()
        findRecordCounters()
        findGlobalCounters()
        findRecordMirrors()
        findReferences()
        findCopies()
        writeRecords(at: recordsAt)
        for link in postLinks where !extraPostFields.contains(where: { $0.0 == link.field }) {
            extraPostFields.append((link.field, link.field))
        }
        // Copies name fields that the users' and posts' `fields` tables must list.
        if !extraUserFields.isEmpty, usersAt < schema.sections.count, schema.sections[usersAt].header == "[users]" {
            schema.sections[usersAt].set("fields", SchemaText.table(extraUserFields))
        }
        if !extraPostFields.isEmpty, postsAt < schema.sections.count, schema.sections[postsAt].header == "[posts]" {
            schema.sections[postsAt].set("fields", SchemaText.table(extraPostFields))
        }
        guard !schema.sections.isEmpty else {
            throw InputError.layout(
                source: source,
                message: "fanout infer found no collection of records in it: no top-level key holds objects under IDs")
        }
    }

    /// Records a candidate's evidence and verdict; rejected ones with rows go to the file's closing comments.
    mutating func judge(_ what: String, _ evidence: Evidence, _ verdict: Verdict) {
        var text = "\(what): \(verdict.kept ? "declared" : "not declared"); \(verdict.reason)"
        if !evidence.counterexamples.isEmpty {
            text += "; disagrees at " + evidence.counterexamples.joined(separator: ", ")
        }
        explanations.append(text)
        if !verdict.kept, evidence.agree > 0 { schema.rejected.append("\(what): \(verdict.reason)") }
    }

    /// Comment lines for a kept candidate: its support and counterexamples.
    static func comments(_ evidence: Evidence, _ verdict: Verdict) -> [String] {
        let reason = verdict.reason
        var lines = [String(reason.prefix(1)).uppercased() + String(reason.dropFirst()) + "."]
        if !evidence.counterexamples.isEmpty {
            lines.append("Disagrees at " + evidence.counterexamples.joined(separator: ", ") + ".")
        }
        return lines
    }

    private func named(_ option: String?) -> ShapeScan.RecordSet? {
        guard let option else { return nil }
        return scan.records.first { Self.label($0.place) == option || $0.place.first == .some(option) }
    }

    private mutating func chooseUsers() throws(InputError) {
        if let option = options.users {
            guard let set = named(option) else { throw unknownCollection("--users", option) }
            users = set
            explanations.append("users: \(Self.label(set.place)), as --users says")
            return
        }
        let candidates = scan.records.filter { Self.captures($0.place) == 1 }
        // A collection is the users when its fields are a person's and other records name its keys.
        func references(_ set: ShapeScan.RecordSet) -> Int {
            scan.edges.filter { Self.overlap($0.pairs.prefix(500).map(\.to), set) >= 0.5 }.count
                + scan.records.filter { other in
                    other.fields.contains { Self.overlap(Self.strings(other, $0).prefix(500), set) >= 0.5 }
                }.count
        }
        let scored = candidates.map { ($0, Self.score($0, words: Self.userWords) * 3 + references($0)) }
        guard let best = scored.max(by: { $0.1 < $1.1 }), best.1 > 0 else { return }
        users = best.0
        explanations.append(
            "users: \(Self.label(best.0.place)) (score \(best.1): fields like a person's, keys that other records name)"
        )
    }

    private mutating func choosePosts() throws(InputError) {
        func poster(_ set: ShapeScan.RecordSet) -> String? {
            if Self.captures(set.place) == 2, isUser(set.items.prefix(500).map { $0.keys[$0.keys.count - 2] }) {
                return "{poster}"
            }
            guard Self.captures(set.place) == 1 else { return nil }
            let ranked = set.fields.map { field in (field, Self.overlap(Self.strings(set, field).prefix(500), users)) }
                .filter { $0.1 >= 0.5 }
            // The owner is the field most of whose values name users; among equals, the first.
            return ranked.max { $0.1 < $1.1 }?.0
        }
        if let option = options.posts {
            guard let set = named(option) else { throw unknownCollection("--posts", option) }
            posts = set
            posterField = poster(set)
            explanations.append("posts: \(Self.label(set.place)), as --posts says")
        } else {
            let candidates = scan.records.filter { set in
                set.place != users?.place && (Self.captures(set.place) == 1 || Self.captures(set.place) == 2)
            }
            var best: (ShapeScan.RecordSet, Int, String?)?
            for set in candidates {
                let owner = poster(set)
                guard owner != nil || users == nil else { continue }
                let score = Self.score(set, words: Self.postWords) * 2 + (owner != nil ? 3 : 0)
                // On a tie, a collection of its own rather than rows under each user (a fan-out of copies).
                let better =
                    best.map { score > $0.1 || (score == $0.1 && Self.captures(set.place) < Self.captures($0.0.place)) }
                    ?? (score > 0)
                if better { best = (set, score, owner) }
            }
            guard let best else { return }
            posts = best.0
            posterField = best.2
            explanations.append(
                "posts: \(Self.label(best.0.place)) (score \(best.1): a post's fields, an owner in "
                    + "\(best.2 ?? "no field"))")
        }
        guard let posts else { return }
        for item in posts.items {
            let key = item.keys.last!
            if posterField == "{poster}" {
                posterOf[key] = item.keys[item.keys.count - 2]
            } else if let field = posterField, let owner = Self.idString(item.value.at(field)) {
                posterOf[key] = owner
            }
        }
    }

    private func unknownCollection(_ flag: String, _ name: String) -> InputError {
        let known = scan.records.filter { Self.captures($0.place) <= 2 }.map { Self.label($0.place) }
        return InputError.schema(
            "\(flag) \(name): the export has no collection of records named so; it has "
                + (known.isEmpty ? "none" : known.prefix(10).joined(separator: ", ")))
    }
}
