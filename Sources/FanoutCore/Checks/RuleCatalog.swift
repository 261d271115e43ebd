/// Every rule Fanout knows, in report order.
public enum RuleCatalog {
    /// All rules.
    static let rules: [any ConsistencyRule] = [
        LikeCountMismatchRule(), LikeCountNegativeRule(), LikeUnknownUserRule(), LikeUnknownPostRule(),
        LikeMirrorMissingRule(), LikeDuplicateRule(),
        PosterCopyStaleRule(), PosterCopyUIDRule(), PostUnknownPosterRule(), PostFieldRule(),
        FollowMirrorMissingRule(), FollowUnknownUserRule(), FollowSelfRule(),
        TimelineMissingRule(), TimelineStaleRule(), TimelineUnknownPostRule(), TimelinePosterRule(),
        KeyInvalidRule(), PushIDTimeRule(), FlaggedPostRule(),
    ]

    /// The descriptors of all rules, in report order.
    public static var descriptors: [RuleDescriptor] { rules.map(\.descriptor) }

    /// The descriptor of rule `id`, if there is one.
    public static func descriptor(_ id: String) -> RuleDescriptor? {
        rules.first { $0.descriptor.id == id }?.descriptor
    }

    /// What is wrong with `id` when no rule has it: `unknown rule "x"; known rules: …`, with the nearest id when
    /// `id` looks like a misspelling of it (`unknown rule "like-count" (did you mean "like-count-mismatch"?); …`).
    package static func unknownMessage(_ id: String) -> String {
        let ids = descriptors.map(\.id)
        return "unknown rule \"\(id)\"\(Suggestion.didYouMean(id, among: ids)); known rules: " + ids.joined(separator: ", ")
    }
}
