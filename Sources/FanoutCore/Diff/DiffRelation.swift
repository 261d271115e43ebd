/// A relation `fanout diff` compares between two exports: one of the tables `fanout tables` writes (so that
/// `fanout sql --diff` compares the same rows), or the rows a declaration of the schema reads (its counters,
/// mirror entries, copies or references). docs/diff-and-history.md, "What is compared".
public enum DiffRelation: Sendable, Hashable {
    case users, posts, likes, likeMirror, following, followers, timeline, flags, postMirror, comments
    /// The rows declaration `name` checks (a ``RowSet`` of role ``RowSet/Role/rows``).
    case declared(String)

    /// The relations `schema` places, in the order of the tables, then the declarations in rule order.
    public static func all(in schema: Schema) -> [DiffRelation] {
        let builtIn: [(DiffRelation, Bool)] = [
            (.users, schema.users != nil), (.posts, schema.posts != nil), (.likes, schema.likes != nil),
            (.likeMirror, schema.likeMirror != nil), (.following, schema.following != nil),
            (.followers, schema.followers != nil), (.timeline, schema.timeline != nil), (.flags, schema.flags != nil),
            (.postMirror, schema.postMirror != nil), (.comments, schema.comments != nil),
        ]
        let declared = RowSets(schema).sets.filter { $0.role == .rows }.map { DiffRelation.declared($0.name) }
        return builtIn.filter(\.1).map(\.0) + declared
    }

    /// Its name in reports: the table's (`like_mirror`), or the declaration's.
    public var name: String {
        switch self {
        case .users: "users"
        case .posts: "posts"
        case .likes: "likes"
        case .likeMirror: "like_mirror"
        case .following: "following"
        case .followers: "followers"
        case .timeline: "timeline"
        case .flags: "flags"
        case .postMirror: "post_mirror"
        case .comments: "comments"
        case .declared(let name): name
        }
    }

    /// What one fact of it is called, and several: `+1,204 likes`, `−1 user` in the summary line.
    public var nouns: (one: String, other: String) {
        switch self {
        case .users: ("user", "users")
        case .posts: ("post", "posts")
        case .likes: ("like", "likes")
        case .likeMirror: ("like mirror entry", "like mirror entries")
        case .following: ("follow", "follows")
        case .followers: ("follower entry", "follower entries")
        case .timeline: ("timeline entry", "timeline entries")
        case .flags: ("flag", "flags")
        case .postMirror: ("post mirror entry", "post mirror entries")
        case .comments: ("comment", "comments")
        case .declared(let name): ("\(name) row", "\(name) rows")
        }
    }

    /// The members of a fact's value, as the diff reports it (old → new): the table's columns besides `path`,
    /// `seq` and the row key, in the order of the JSON (sorted). A declaration's rows have the `declared` table's
    /// `a`, `b` and `value` where its row set keeps them.
    public func fields(in schema: Schema) -> [String] {
        switch self {
        case .users: return ["name", "username"]
        case .posts: return ["created_at", "like_count", "owner", "poster_uid", "poster_username"]
        case .likes, .likeMirror, .flags: return ["post", "user"]
        case .following, .followers: return ["target", "user"]
        case .timeline: return ["post", "poster", "user"]
        case .postMirror: return ["post", "user"]
        case .comments: return ["created_at", "post", "text", "user"]
        case .declared(let name):
            let sets = RowSets(schema)
            guard let index = sets.rows(of: name) else { return [] }
            let set = sets.sets[index]
            return (set.a != nil ? ["a"] : []) + (set.b != nil ? ["b"] : []) + (set.value != nil ? ["value"] : [])
        }
    }
}
