/// The relations a declaration can name: what a counter counts, what a mirror copies, whose field a copy holds
/// (docs/layouts.md "Declaring your app's copies").
public enum DeclaredRelation: String, Sendable, Equatable, CaseIterable {
    case users, posts, likes, follows, comments, timeline, flags

    /// The ends of the relation's facts, named as patterns capture them: a counter's `per` is one of them, a
    /// mirror captures the first two (the pair that identifies a fact).
    public var ends: [String] {
        switch self {
        case .users: ["user"]
        case .posts: ["poster", "post"]
        case .likes: ["post", "user"]
        case .follows: ["user", "target"]
        case .comments: ["post", "id", "user"]
        case .timeline: ["user", "post"]
        case .flags: ["post", "user"]
        }
    }

    /// The two ends that identify a fact of the relation, which a mirror stores: nil for users.
    public var pair: (String, String)? {
        let ends = self.ends
        return ends.count >= 2 ? (ends[0], ends[1]) : nil
    }

    /// Whether the schema places the relation.
    public func isPlaced(in schema: Schema) -> Bool {
        switch self {
        case .users: schema.users != nil
        case .posts: schema.posts != nil
        case .likes: schema.likes != nil
        case .follows: schema.following != nil || schema.followers != nil
        case .comments: schema.comments != nil
        case .timeline: schema.timeline != nil && schema.posts != nil
        case .flags: schema.flags != nil
        }
    }

    /// Where the schema file places the relation, for the reason a rule is skipped.
    var schemaKey: String {
        switch self {
        case .follows: "[follows] following, followers"
        default: "[\(rawValue)] path"
        }
    }

    /// One fact of the relation, for messages: "post", "like", "follow".
    var noun: String {
        switch self {
        case .users: "user"
        case .posts: "post"
        case .likes: "like"
        case .follows: "follow"
        case .comments: "comment"
        case .timeline: "timeline entry"
        case .flags: "flag"
        }
    }
}
