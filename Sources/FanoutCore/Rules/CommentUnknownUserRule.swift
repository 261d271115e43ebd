import FanoutJSON

/// `comment-unknown-user`: every comment's author exists (a reference from each comment to a user).
struct CommentUnknownUserRule: ReferenceRule {
    let descriptor = RuleDescriptor(
        id: "comment-unknown-user", defaultSeverity: .error,
        summary: "Every comment's author exists.",
        explanation: """
            Deleting an account rarely deletes the account's comments, which are stored under each post. Pages \
            then show comments by no one, and comment counts include them. The fix deletes the comment.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        (schema.comments == nil ? "the schema has no comments relation ([comments] path)" : nil)
            ?? Requirement.users(schema)
    }

    /// Comments on existing posts whose author does not exist (`comment-unknown-post` reports the others).
    func broken(in context: CheckContext) -> [BrokenReference] {
        let dataset = context.dataset, derived = context.derived
        return dataset.comments.compactMap { comment in
            guard derived.user(comment.user) == nil, derived.post(comment.post) != nil || dataset.schema.posts == nil,
                let path = dataset.path(of: comment)
            else { return nil }
            return BrokenReference(
                paths: [path], key: comment.user == noKey ? nil : dataset.key(comment.user),
                fix: [PatchEntry(path, .null)],
                record: comment.id, other: comment.post)
        }
    }

    func message(_ reference: BrokenReference, in context: CheckContext) -> String {
        "comment \(context.dataset.key(reference.record)) on post \(context.dataset.key(reference.other)) is by "
            + (reference.key.map { "\($0), who does not exist" } ?? "no one")
    }

    func sql(_ q: SQLContext) -> String {
        q.with()
            + q.finding(
                paths: ["c.path"], expected: "'null'", actual: q.json("coalesce(c.user, 'no one')"),
                fix: q.fix([("c.path", "'null'")]),
                message: [
                    "'comment '", "c.id", "' on post '", "c.post", "' is by '",
                    "CASE WHEN c.user IS NULL THEN 'no one' ELSE c.user || ', who does not exist' END",
                ]
            ) + "\nFROM \(q.table("comments")) c\nWHERE NOT \(q.userExists("c.user"))"
            + (q.schema.posts == nil ? "" : " AND \(q.postExists("c.post"))")
    }
}
