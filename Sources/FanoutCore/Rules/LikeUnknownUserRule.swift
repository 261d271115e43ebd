import FanoutJSON

/// `like-unknown-user`: every liker exists.
struct LikeUnknownUserRule: ConsistencyRule {
    let descriptor = RuleDescriptor(
        id: "like-unknown-user", defaultSeverity: .error,
        summary: "Every user in a like set exists.",
        explanation: """
            Deleting an account rarely deletes the account's likes, which are stored under each liked post. Such \
            likes are not counted. The fix deletes the like.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        Requirement.likes(schema) ?? Requirement.users(schema)
    }

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset, derived = context.derived
        return dataset.likes.compactMap { like in
            guard derived.user(like.user) == nil, derived.post(like.post) != nil,
                let path = dataset.path(ofLike: like)
            else { return nil }
            return finding(
                "user \(dataset.key(like.user)), who does not exist, likes post \(dataset.key(like.post))",
                paths: [path], expected: JSONValue.null, actual: true, fix: [PatchEntry(path, .null)]
            )
        }
    }

    func sql(_ q: SQLContext) -> String {
        let path = q.path(q.schema.likes!.pattern, ["post": "l.post", "user": "l.user", "id": "l.id"])
        return q.with()
            + q.finding(
                paths: [path], expected: "'null'", actual: "'true'", fix: q.fix([(path, "'null'")]),
                message: ["'user '", "l.user", "', who does not exist, likes post '", "l.post"]
            ) + "\nFROM \(q.suspectLikes) l\nWHERE NOT \(q.userExists("l.user")) AND \(q.postExists("l.post"))"
    }
}
