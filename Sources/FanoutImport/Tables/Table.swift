/// The tables `fanout tables` writes, and their columns: the one definition the rows, the manifest and the
/// table layouts of docs/tables.md (checked by a test) follow.
///
/// Each table holds what the rules and the derived data need, so that every rule can be computed in SQL over
/// the tables alone with the findings `fanout check` gives: database paths, the keys a fact names, the fields the
/// rules compare, and `seq`, the fact's position in the export, which orders a table's rows as the export
/// stores them (where a key is stored twice, the last one wins, as in `check`).
public enum Table: String, CaseIterable, Sendable {
    case users, posts, likes
    case likeMirror = "like_mirror"
    case following, followers, timeline, flags
    case keyProblems = "key_problems"
    case postMirror = "post_mirror"
    case comments, declared

    /// A column: its name and its type, as Spark SQL and DuckDB write it.
    public struct Column: Sendable, Equatable {
        public let name: String
        public let type: String
        /// What the column holds, for docs/tables.md.
        public let meaning: String
    }

    /// The folder of the table's parts, and its name in the manifest.
    public var name: String { rawValue }

    /// The columns, in the order every row writes them.
    public var columns: [Column] {
        switch self {
        case .users:
            [
                Self.path("`users/<uid>`"), Self.seq, Column(name: "user", type: "string", meaning: "the uid"),
                Column(name: "username", type: "string", meaning: "the username, null when missing or not a string"),
                Column(
                    name: "name", type: "string",
                    meaning:
                        "the display name, which messages show when there is no username; null when missing or not a string"
                ),
            ]
        case .posts:
            [
                Self.path("`posts/<uid>/<key>`, Parse `Post/<objectId>`"), Self.seq,
                Column(name: "post", type: "string", meaning: "the post key"),
                Column(
                    name: "owner", type: "string",
                    meaning: "the owner's uid: the path's `{poster}`, else the owner field; null when neither"),
                Column(
                    name: "created_at", type: "double",
                    meaning: "the timestamp in seconds since 1970; null when missing or malformed"),
                Column(
                    name: "push_id_time", type: "double",
                    meaning: "the time in the post key when it is a push ID, in seconds"),
                Column(
                    name: "like_count", type: "bigint",
                    meaning: "the stored like counter; null when missing or not an integer"),
                Column(name: "poster_uid", type: "string", meaning: "the poster uid copy"),
                Column(name: "poster_username", type: "string", meaning: "the poster username copy"),
                Column(
                    name: "field_problems", type: "array<struct<path:string,expected:string,actual:string>>",
                    meaning:
                        "`post-field`: each field missing or of the wrong type, with its path, the type expected and what was there"
                ),
            ]
        case .likes, .likeMirror, .flags:
            [
                Self.path(
                    self == .likes
                        ? "`postLikes/<key>/<uid>`, Parse `Like/<objectId>`"
                        : self == .likeMirror ? "`user-likes/<uid>/<key>`" : "Parse `FlaggedContent/<objectId>`"),
                Self.seq, Column(name: "post", type: "string", meaning: "the post key"),
                Column(
                    name: "user", type: "string",
                    meaning: self == .flags ? "the uid of who flagged it" : "the liker's uid"),
                Self.id,
            ]
        case .following, .followers:
            [
                Self.path(self == .following ? "`following/<uid>/<target>`" : "`followers/<target>/<uid>`"), Self.seq,
                Column(name: "user", type: "string", meaning: "the follower's uid"),
                Column(name: "target", type: "string", meaning: "the followed user's uid"), Self.id,
            ]
        case .timeline:
            [
                Self.path("`timeline/<uid>/<key>`"), Self.seq,
                Column(name: "user", type: "string", meaning: "the reader, whose timeline it is"),
                Column(name: "post", type: "string", meaning: "the post key"),
                Column(
                    name: "poster", type: "string",
                    meaning: "the entry's poster uid copy; null when missing or not a string"),
            ]
        case .keyProblems:
            [
                Column(
                    name: "kind", type: "string",
                    meaning: "`key`: an invalid key; `depth`: a relation stored too deep (from the schema)"),
                Column(
                    name: "path", type: "string",
                    meaning: "the path up to and including the key; for `depth`, the relation's pattern"),
                Column(name: "seq", type: "bigint", meaning: "the position of the fact that names the key"),
                Column(name: "relation", type: "string", meaning: "the table of that fact"),
                Column(
                    name: "relation_rank", type: "bigint",
                    meaning:
                        "the order in which `key-invalid` looks for a key's first path: users, posts, likes, like_mirror, following, followers, timeline"
                ),
                Column(name: "key", type: "string", meaning: "the invalid key"),
                Column(name: "problem", type: "string", meaning: "why it is invalid (`contains \".\"`)"),
                Column(name: "message", type: "string", meaning: "the finding's message"),
                Column(
                    name: "depth", type: "bigint", meaning: "for `depth`, how many keys deep the relation stores data"),
            ]
        case .postMirror:
            [
                Self.path("`user-posts/<uid>/<key>`"), Self.seq,
                Column(name: "user", type: "string", meaning: "the uid the entry is stored under"),
                Column(name: "post", type: "string", meaning: "the post key"), Self.id,
            ]
        case .comments:
            [
                Self.path("`comments/<key>/<id>`"), Self.seq,
                Column(name: "id", type: "string", meaning: "the comment's key"),
                Column(name: "post", type: "string", meaning: "the commented post's key"),
                Column(name: "user", type: "string", meaning: "the author's uid; null when missing or not a string"),
                Column(name: "text", type: "string", meaning: "the text; null when missing or not a string"),
                Column(
                    name: "created_at", type: "double",
                    meaning: "the timestamp in seconds since 1970; null when missing or malformed"),
            ]
        case .declared:
            [
                Column(
                    name: "name", type: "string",
                    meaning:
                        "the row set: a declaration's name (its rows), `relation.field` (the values copies copy), or a pattern (the records a reference may name)"
                ),
                Column(name: "role", type: "string", meaning: "`rows`, `originals`, `targets` or `records`"),
                Self.path("the row's node, e.g. `users/<uid>` for a counter at `users/{poster}/tweetCount`"), Self.seq,
                Column(
                    name: "a", type: "string",
                    meaning:
                        "a counter's group, a mirror entry's first end, the key a copy's `via` or a reference names, an original's or a target's record"
                ),
                Column(name: "b", type: "string", meaning: "a mirror entry's second end"),
                Column(
                    name: "value", type: "string",
                    meaning:
                        "the stored value as JSON text (a counter's number, a copy, an original); null when missing"),
            ]
        }
    }

    /// The rank of a relation in `key-invalid`'s search for a key's first path, or nil for tables it does not
    /// search: the tables up to `timeline` are declared in the rule's search order.
    public var keySearchRank: Int? { index <= Table.timeline.index ? index : nil }

    private static func path(_ example: String) -> Column {
        Column(name: "path", type: "string", meaning: "the database path of the fact (\(example))")
    }

    private static let seq = Column(
        name: "seq", type: "bigint", meaning: "the fact's position in the export: rows sort as the export stores them")
    private static let id = Column(
        name: "id", type: "string",
        meaning: "the key of the row storing the edge (Parse's objectId); null where the pair is the key")
}

extension Table {
    /// The table's index among ``allCases``.
    public var index: Int {
        switch self {
        case .users: 0
        case .posts: 1
        case .likes: 2
        case .likeMirror: 3
        case .following: 4
        case .followers: 5
        case .timeline: 6
        case .flags: 7
        case .keyProblems: 8
        case .postMirror: 9
        case .comments: 10
        case .declared: 11
        }
    }
}
