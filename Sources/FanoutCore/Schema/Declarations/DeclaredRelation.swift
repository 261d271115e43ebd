/// The relations a declaration can name: what a counter counts, what a mirror copies, whose field a copy holds
/// (docs/layouts.md "Declaring your app's copies"): the built-in ones, or a collection of `[records.NAME]`.
public enum DeclaredRelation: Sendable, Equatable, Hashable, RawRepresentable {
    case users, posts, likes, follows, comments, timeline, flags
    /// The records of `[records.NAME]`.
    case records(String)

    /// The built-in relations, in the order messages list them.
    public static let builtIn: [DeclaredRelation] = [.users, .posts, .likes, .follows, .comments, .timeline, .flags]

    /// A built-in relation by its name, else the records of that name (which the schema must place).
    public init?(rawValue: String) {
        guard !rawValue.isEmpty else { return nil }
        self = Self.builtIn.first { $0.rawValue == rawValue } ?? .records(rawValue)
    }

    /// The name a schema file writes: `likes`, `threads`.
    public var rawValue: String {
        switch self {
        case .users: "users"
        case .posts: "posts"
        case .likes: "likes"
        case .follows: "follows"
        case .comments: "comments"
        case .timeline: "timeline"
        case .flags: "flags"
        case .records(let name): name
        }
    }

    /// The collection's name for records, nil for a built-in relation.
    public var recordsName: String? { if case .records(let name) = self { name } else { nil } }

    /// The ends of the relation's facts, named as patterns capture them: a counter's `per` is one of them, a
    /// mirror captures the first two (the pair that identifies a fact). Records' ends depend on the schema
    /// (``RecordRelation/groupNames``): none here.
    public var ends: [String] {
        switch self {
        case .users: ["user"]
        case .posts: ["poster", "post"]
        case .likes: ["post", "user"]
        case .follows: ["user", "target"]
        case .comments: ["post", "id", "user"]
        case .timeline: ["user", "post"]
        case .flags: ["post", "user"]
        case .records: []
        }
    }

    /// The two ends that identify a fact of the relation, which a mirror stores: nil for users and records (whose
    /// mirror names its pair, ``MirrorDeclaration/pair``).
    public var pair: (String, String)? {
        let ends = self.ends
        return ends.count >= 2 ? (ends[0], ends[1]) : nil
    }

    /// Whether facts of the relation grouped by `per` are counted as records read as rows of their own (a collection
    /// of `[records.NAME]`, or users, posts and comments grouped by a field rather than an end).
    public func countsAsRecords(per: String?) -> Bool {
        recordsName != nil || per.map { !ends.contains($0) } ?? false
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
        case .records(let name): schema.record(named: name) != nil
        }
    }

    /// Where the schema file places the relation, for the reason a rule is skipped.
    var schemaKey: String {
        switch self {
        case .follows: "[follows] following, followers"
        case .records(let name): "[records.\(name)] path"
        default: "[\(rawValue)] path"
        }
    }

    /// One fact of the relation, for messages: "post", "like", "follow"; for records the collection's name
    /// without a plural `s` ("thread").
    public var noun: String {
        switch self {
        case .users: "user"
        case .posts: "post"
        case .likes: "like"
        case .follows: "follow"
        case .comments: "comment"
        case .timeline: "timeline entry"
        case .flags: "flag"
        case .records(let name):
            name.hasSuffix("ies")
                ? name.dropLast(3) + "y" : name.count > 1 && name.hasSuffix("s") ? String(name.dropLast()) : name
        }
    }
}
