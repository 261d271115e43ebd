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
        (schema.comments == nil ? "the schema has no comments relation ([comments] path)" : nil) ?? Requirement.users(schema)
    }

    /// Comments on existing posts whose author does not exist (`comment-unknown-post` reports the others).
    func broken(in context: CheckContext) -> [BrokenReference] {
        let dataset = context.dataset, derived = context.derived
        return dataset.comments.compactMap { comment in
            guard derived.user(comment.user) == nil, derived.post(comment.post) != nil || dataset.schema.posts == nil,
                let path = dataset.path(of: comment)
            else { return nil }
            return BrokenReference(
                paths: [path], key: comment.user == noKey ? nil : dataset.key(comment.user), fix: [PatchEntry(path, .null)],
                record: comment.id, other: comment.post)
        }
    }

    func message(_ reference: BrokenReference, in context: CheckContext) -> String {
        "comment \(context.dataset.key(reference.record)) on post \(context.dataset.key(reference.other)) is by "
            + (reference.key.map { "\($0), who does not exist" } ?? "no one")
    }

    func sql(_ q: SQLContext) -> String {
        q.with() + q.finding(
            paths: ["c.path"], expected: "'null'", actual: q.json("coalesce(c.user, 'no one')"), fix: q.fix([("c.path", "'null'")]),
            message: ["'comment '", "c.id", "' on post '", "c.post", "' is by '",
                      "CASE WHEN c.user IS NULL THEN 'no one' ELSE c.user || ', who does not exist' END"]
        ) + "\nFROM \(q.table("comments")) c\nWHERE NOT \(q.userExists("c.user"))"
            + (q.schema.posts == nil ? "" : " AND \(q.postExists("c.post"))")
    }
}

/// `comment-unknown-post`: every commented post exists (a reference from each comment to a post).
struct CommentUnknownPostRule: ReferenceRule {
    let descriptor = RuleDescriptor(
        id: "comment-unknown-post", defaultSeverity: .error,
        summary: "Every comment is on an existing post.",
        explanation: """
            Deleting a post rarely deletes its comments, which apps keep in a tree of their own \
            (`comments/{post}/{id}`). The orphaned comments are shown nowhere but still cost storage and reads. \
            The fix deletes them.
            """
    )

    func missingRequirement(in schema: Schema) -> String? {
        (schema.comments == nil ? "the schema has no comments relation ([comments] path)" : nil) ?? Requirement.posts(schema)
    }

    func broken(in context: CheckContext) -> [BrokenReference] {
        let dataset = context.dataset, derived = context.derived
        return dataset.comments.compactMap { comment in
            guard derived.post(comment.post) == nil, let path = dataset.path(of: comment) else { return nil }
            return BrokenReference(paths: [path], key: dataset.key(comment.post), fix: [PatchEntry(path, .null)], record: comment.id)
        }
    }

    func message(_ reference: BrokenReference, in context: CheckContext) -> String {
        "comment \(context.dataset.key(reference.record)) is on post \(reference.key ?? ""), which does not exist"
    }

    func sql(_ q: SQLContext) -> String {
        q.with() + q.finding(
            paths: ["c.path"], expected: "'null'", actual: q.json("c.post"), fix: q.fix([("c.path", "'null'")]),
            message: ["'comment '", "c.id", "' is on post '", "c.post", "', which does not exist'"]
        ) + "\nFROM \(q.table("comments")) c\nWHERE NOT \(q.postExists("c.post"))"
    }
}
