/// Every rule Fanout knows, in report order: the built-in rules, then one per declaration of the schema
/// (docs/layouts.md "Declaring your app's copies").
public enum RuleCatalog {
    /// The built-in rules.
    static let rules: [any ConsistencyRule] = [
        LikeCountMismatchRule(), LikeCountNegativeRule(), LikeUnknownUserRule(), LikeUnknownPostRule(),
        LikeMirrorMissingRule(), LikeDuplicateRule(),
        PosterCopyStaleRule(), PosterCopyUIDRule(), PostUnknownPosterRule(), PostFieldRule(), PostMirrorMissingRule(),
        FollowMirrorMissingRule(), FollowUnknownUserRule(), FollowSelfRule(),
        TimelineMissingRule(), TimelineStaleRule(), TimelineUnknownPostRule(), TimelinePosterRule(),
        CommentUnknownUserRule(), CommentUnknownPostRule(),
        KeyInvalidRule(), PushIDTimeRule(), FlaggedPostRule(), UserNameConfusableRule(),
    ]

    /// Built-in rules of relations that a schema places only if its app keeps them (comments, a posts mirror):
    /// like declarations, they are part of a run only when the schema places their relation, so that the reports
    /// of layouts without them list them nowhere.
    static func isPlaced(_ id: String, in schema: Schema) -> Bool {
        switch id {
        case "post-mirror-missing": schema.postMirror != nil
        case "comment-unknown-user", "comment-unknown-post": schema.comments != nil
        default: true
        }
    }

    /// The rules of `schema`: the built-in ones, then its declarations' (counters, mirrors, copies, references).
    static func rules(for schema: Schema) -> [any ConsistencyRule] {
        let declarations = schema.declarations
        guard !declarations.isEmpty else { return rules }
        return rules
            + declarations.counters.map(DeclaredCounterRule.init) as [any ConsistencyRule]
            + declarations.mirrors.map(DeclaredMirrorRule.init) as [any ConsistencyRule]
            + declarations.copies.map(DeclaredCopyRule.init) as [any ConsistencyRule]
            + declarations.references.map(DeclaredReferenceRule.init) as [any ConsistencyRule]
    }

    /// The descriptors of the built-in rules, in report order.
    public static var descriptors: [RuleDescriptor] { rules.map(\.descriptor) }

    /// The descriptors of the rules of `schema`, in report order.
    public static func descriptors(for schema: Schema) -> [RuleDescriptor] { rules(for: schema).map(\.descriptor) }

    /// The descriptors of `schema`'s declarations' rules, in report order.
    public static func declaredDescriptors(for schema: Schema) -> [RuleDescriptor] {
        Array(descriptors(for: schema).dropFirst(rules.count))
    }

    /// The descriptor of rule `id`: a built-in rule's, or one of `schema`'s declarations'.
    public static func descriptor(_ id: String, schema: Schema? = nil) -> RuleDescriptor? {
        rules.first { $0.descriptor.id == id }?.descriptor
            ?? schema.flatMap { schema in descriptors(for: schema).first { $0.id == id } }
    }

    /// What is wrong with `id` when no rule has it: `unknown rule "x"; known rules: …`, with the nearest id when
    /// `id` looks like a misspelling of it (`unknown rule "like-count" (did you mean "like-count-mismatch"?); …`).
    /// The rules known are the built-in ones and `schema`'s declarations.
    package static func unknownMessage(_ id: String, schema: Schema? = nil) -> String {
        let ids = (schema.map(descriptors(for:)) ?? descriptors).map(\.id)
        return "unknown rule \"\(id)\"\(Suggestion.didYouMean(id, among: ids)); known rules: "
            + ids.joined(separator: ", ")
    }
}
