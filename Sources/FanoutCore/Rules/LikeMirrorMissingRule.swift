import FanoutJSON

/// `like-mirror-missing`: the like set and its mirror (`user-likes`) agree both ways.
struct LikeMirrorMissingRule: MirrorRule {
    let descriptor = RuleDescriptor(
        id: "like-mirror-missing", defaultSeverity: .error,
        summary: "Every like is stored both in the post's like set and in the liker's mirror (`user-likes`).",
        explanation: """
            Apps that list what a user liked keep a mirror of every like under the user \
            (`user-likes/{user}/{post}` next to `post-likes/{post}/{user}`). Liking writes both in separate \
            steps, so a failed or interrupted write, or an older client, leaves one side only, and the user's \
            list of likes disagrees with the post's. The like set is the source of truth: a missing mirror entry \
            is added, and a mirror entry without its like is deleted.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.likes(schema) ?? Requirement.likeMirror(schema)
    }

    let orphanNamesSourceFirst = false

    func sides(of context: CheckContext) -> (source: [Like], mirror: [Like]) {
        (context.dataset.likes, context.dataset.likeMirror)
    }

    func pair(_ like: Like) -> Int64 { packed(like) }

    func paths(of like: Like, fromSource: Bool, in dataset: Dataset) -> (source: String?, mirror: String?) {
        let other = Like(post: like.post, user: like.user)
        return fromSource
            ? (dataset.path(ofLike: like), dataset.path(ofMirroredLike: other))
            : (dataset.path(ofLike: other), dataset.path(ofMirroredLike: like))
    }

    func reportsMissing(_ like: Like, in context: CheckContext) -> Bool {
        // A like by a deleted user or of a deleted post is deleted, not mirrored: other rules report those.
        (context.dataset.schema.users == nil || context.derived.user(like.user) != nil)
            && (context.dataset.schema.posts == nil || context.derived.post(like.post) != nil)
    }

    func entryValue(_ like: Like, in dataset: Dataset) -> JSONValue {
        dataset.entryValue(dataset.schema.likeMirror!, post: like.post, user: like.user)
    }

    func sqlEntryValue(_ row: String, _ q: SQLContext) -> String {
        q.entryValue(q.schema.likeMirror!, ["post": "\(row).post", "user": "\(row).user"])
    }

    func missingMessage(_ like: Like, in context: CheckContext) -> String {
        "\(context.name(like.user)) likes post \(context.dataset.key(like.post)) but the like is missing from their mirror"
    }

    func orphanMessage(_ like: Like, in context: CheckContext) -> String {
        "\(context.name(like.user))'s mirror lists a like of post \(context.dataset.key(like.post)) that the post's like "
            + "set does not hold"
    }

    func sqlSides(_ q: SQLContext) -> (source: MirrorSide, mirror: MirrorSide) {
        (q.side("likes", q.schema.likes!), q.side("like_mirror", q.schema.likeMirror!))
    }

    var sqlPair: (String, String) { ("post", "user") }

    func sqlCaptures(_ row: String) -> [String: String] {
        ["post": "\(row).post", "user": "\(row).user", "id": "\(row).id"]
    }

    func sqlReportsMissing(_ row: String, _ q: SQLContext) -> String {
        (q.schema.users == nil ? "TRUE" : q.userExists("\(row).user")) + " AND "
            + (q.schema.posts == nil ? "TRUE" : q.postExists("\(row).post"))
    }

    func sqlMissingMessage(_ row: String, _ q: SQLContext) -> [String] {
        [q.name("\(row).user"), "' likes post '", "\(row).post", "' but the like is missing from their mirror'"]
    }

    func sqlOrphanMessage(_ row: String, _ q: SQLContext) -> [String] {
        [
            q.name("\(row).user"), "'''s mirror lists a like of post '", "\(row).post",
            "' that the post''s like set does not hold'",
        ]
    }
}
