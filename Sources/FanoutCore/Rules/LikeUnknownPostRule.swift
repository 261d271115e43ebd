import FanoutJSON

/// `like-unknown-post`: every liked post exists.
struct LikeUnknownPostRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "like-unknown-post", defaultSeverity: .error,
        summary: "Every post in the like sets exists.",
        explanation: """
            Deleting a post rarely deletes its like set, which lives in another part of the tree. The orphaned \
            likes are invisible to users but still cost storage and reads. The fix deletes them.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.likes(schema) ?? Requirement.posts(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        return dataset.likes.compactMap { like in
            guard derived.post(like.post) == nil, let path = dataset.path(ofLike: like) else { return nil }
            return finding(
                "\(context.name(like.user)) likes post \(dataset.key(like.post)), which does not exist",
                paths: [path], expected: JSONValue.null, actual: true, fix: [PatchEntry(path, .null)]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let path = q.path(q.schema.likes!.pattern, ["post": "l.post", "user": "l.user", "id": "l.id"])
        return q.with()
            + q.finding(
                paths: [path], expected: "'null'", actual: "'true'", fix: q.fix([(path, "'null'")]),
                message: [q.name("l.user"), "' likes post '", "l.post", "', which does not exist'"]
            ) + "\nFROM \(q.suspectLikes) l\nWHERE NOT \(q.postExists("l.post"))"
    }
}
