import FanoutJSON

/// `post-mirror-missing`: each user's list of their own posts (`user-posts`, `[posts] mirror`) holds exactly
/// their posts (a mirror of posts, docs/layouts.md "Declaring your app's copies").
struct PostMirrorMissingRule: MirrorRule {
    let descriptor = RuleDescriptor(
        id: "post-mirror-missing", defaultSeverity: .error,
        summary: "Every post is listed among its poster's posts (`user-posts`), and the list holds only their posts.",
        explanation: """
            Apps that show a user's posts keep a list of them under the user (`user-posts/{user}/{post}`) next to \
            the post's owner field. Posting writes the post and the list entry in separate steps, and deleting or \
            moving a post rarely updates the list, so the profile shows posts that are gone or misses new ones. The \
            post's owner is the source of truth: a missing list entry is added, and an entry for a post that is not \
            the user's is deleted.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.posts(schema)
            ?? (schema.postMirror == nil
                ? "the schema has no post mirror relation, such as user-posts ([posts] mirror)" : nil)
    }

    let orphanNamesSourceFirst = false

    func sides(of context: CheckContext) -> (source: [OwnedPost], mirror: [OwnedPost]) {
        var live: [OwnedPost] = []
        RelationFacts(context: context).each(.posts) { live.append(OwnedPost(user: $0.a, post: $0.b)) }
        return (live, context.dataset.postMirror)
    }

    func pair(_ entry: OwnedPost) -> Int64 { Int64(entry.user) << 32 | Int64(UInt32(bitPattern: entry.post)) }

    func paths(of entry: OwnedPost, fromSource: Bool, in dataset: Dataset) -> (source: String?, mirror: String?) {
        (dataset.path(ofPost: entry.post, owner: entry.user), dataset.path(ofOwnedPost: entry))
    }

    func reportsMissing(_ entry: OwnedPost, in context: CheckContext) -> Bool {
        // A post whose owner does not exist is `post-unknown-poster`'s.
        entry.user != noKey && RelationFacts(context: context).userExists(entry.user)
    }

    func entryValue(_ entry: OwnedPost, in dataset: Dataset) -> JSONValue {
        dataset.entryValue(dataset.schema.postMirror!, post: entry.post, user: entry.user)
    }

    func missingMessage(_ entry: OwnedPost, in context: CheckContext) -> String {
        "\(context.name(entry.user))'s post \(context.dataset.key(entry.post)) is missing from their list of posts"
    }

    func orphanMessage(_ entry: OwnedPost, in context: CheckContext) -> String {
        "\(context.name(entry.user))'s list of posts holds post \(context.dataset.key(entry.post)), which is not a post of theirs"
    }

    func sqlSides(_ q: SQLContext) -> (source: MirrorSide, mirror: MirrorSide) {
        (
            MirrorSide(
                from:
                    "(SELECT p.owner AS user, p.post AS post, p.path AS path, p.seq AS seq FROM live_posts p WHERE p.owner IS NOT NULL)",
                pattern: q.schema.posts!.pattern),
            q.side("post_mirror", q.schema.postMirror!)
        )
    }

    var sqlPair: (String, String) { ("user", "post") }

    func sqlCaptures(_ row: String) -> [String: String] {
        ["user": "\(row).user", "poster": "\(row).user", "post": "\(row).post", "id": "\(row).id"]
    }

    func sqlReportsMissing(_ row: String, _ q: SQLContext) -> String {
        q.schema.users == nil ? "TRUE" : q.userExists("\(row).user")
    }

    func sqlEntryValue(_ row: String, _ q: SQLContext) -> String {
        q.entryValue(q.schema.postMirror!, ["user": "\(row).user", "post": "\(row).post"])
    }

    func sqlMissingMessage(_ row: String, _ q: SQLContext) -> [String] {
        [q.name("\(row).user"), "'''s post '", "\(row).post", "' is missing from their list of posts'"]
    }

    func sqlOrphanMessage(_ row: String, _ q: SQLContext) -> [String] {
        [q.name("\(row).user"), "'''s list of posts holds post '", "\(row).post", "', which is not a post of theirs'"]
    }
}
