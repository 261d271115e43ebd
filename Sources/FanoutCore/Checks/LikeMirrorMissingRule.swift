import FanoutJSON

/// `like-mirror-missing`: the like set and its mirror (`user-likes`) agree both ways.
struct LikeMirrorMissingRule: ConsistencyRule {
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

    func findings(in context: CheckContext) -> [Finding] {
        let dataset = context.dataset
        let report = MirrorFindings<Like>(
            sourcePath: dataset.path(ofLike:), mirrorPath: dataset.path(ofMirroredLike:),
            reportsMissing: { like in
                // A like by a deleted user or of a deleted post is deleted, not mirrored: other rules report those.
                (dataset.schema.users == nil || context.derived.user(like.user) != nil)
                    && (dataset.schema.posts == nil || context.derived.post(like.post) != nil)
            },
            missingMessage: {
                "\(context.name($0.user)) likes post \(dataset.key($0.post)) but the like is missing from their mirror"
            },
            orphanMessage: {
                "\(context.name($0.user))'s mirror lists a like of post \(dataset.key($0.post)) that the post's like set does not hold"
            },
            orphanNamesSourceFirst: false)
        return report.findings(
            MirrorDifference(source: dataset.likes, mirror: dataset.likeMirror, packed: packed), rule: self,
            edgeValue: dataset.schema.edgeValue.json)
    }
}
