import FanoutJSON

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
        (schema.comments == nil ? "the schema has no comments relation ([comments] path)" : nil)
            ?? Requirement.posts(schema)
    }

    func broken(in context: CheckContext) -> [BrokenReference] {
        let dataset = context.dataset, derived = context.derived
        return dataset.comments.compactMap { comment in
            guard derived.post(comment.post) == nil, let path = dataset.path(of: comment) else { return nil }
            return BrokenReference(
                paths: [path], key: dataset.key(comment.post), fix: [PatchEntry(path, .null)], record: comment.id)
        }
    }

    func message(_ reference: BrokenReference, in context: CheckContext) -> String {
        "comment \(context.dataset.key(reference.record)) is on post \(reference.key ?? ""), which does not exist"
    }

    func sql(_ q: SQLContext) -> String {
        q.with()
            + q.finding(
                paths: ["c.path"], expected: "'null'", actual: q.json("c.post"), fix: q.fix([("c.path", "'null'")]),
                message: ["'comment '", "c.id", "' is on post '", "c.post", "', which does not exist'"]
            ) + "\nFROM \(q.table("comments")) c\nWHERE NOT \(q.postExists("c.post"))"
    }
}
