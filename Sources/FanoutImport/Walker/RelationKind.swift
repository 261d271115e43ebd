import FanoutCore

/// The relations a schema can place in the tree. The walker numbers them by ``rawValue``; the declarations'
/// row sets (``RowSets``) follow them, from ``declaredBase`` on.
enum RelationKind: Int, CaseIterable {
    case users, posts, postMirror, likes, likeMirror, following, followers, timeline, flags, comments

    /// The walker's number of declared row set `index`.
    static var declaredBase: Int { allCases.count }

    /// The edge relation of this kind in `schema`, for the kinds that are edges.
    func edge(in schema: Schema) -> EdgeRelation? {
        switch self {
        case .postMirror: schema.postMirror
        case .likes: schema.likes
        case .likeMirror: schema.likeMirror
        case .following: schema.following
        case .followers: schema.followers
        case .flags: schema.flags
        case .users, .posts, .timeline, .comments: nil
        }
    }

    /// The pattern of this kind in `schema`, if the schema has the relation.
    func pattern(in schema: Schema) -> PathPattern? {
        switch self {
        case .users: schema.users?.pattern
        case .posts: schema.posts?.pattern
        case .timeline: schema.timeline?.pattern
        case .comments: schema.comments?.pattern
        default: edge(in: schema)?.pattern
        }
    }

    /// Whether the relation may read ends from fields of a row (`user = "…"`) instead of its path.
    var readsEndsFromFields: Bool { ends != nil }

    /// The ends of the relation that the schema reads from fields of the row rather than the path.
    func endFields(in schema: Schema) -> [CaptureSlot: FieldPath] {
        var fields: [CaptureSlot: FieldPath] = [:]
        switch self {
        case .timeline:
            fields[.user] = schema.timeline?.user
            fields[.post] = schema.timeline?.post
        case .comments:
            fields[.user] = schema.comments?.user
            fields[.post] = schema.comments?.post
        default:
            guard let edge = edge(in: schema) else { break }
            fields[.user] = edge.user
            fields[.post] = edge.post
            fields[.target] = edge.target
        }
        return fields
    }

    /// The captures the relation's pattern must and may have in `schema`. An end that the schema reads from a
    /// field of the row must not be captured too; a row with an end in a field needs `{id}`, its key (a timeline
    /// row, a comment), or may capture it (an edge with one end in the path).
    func captures(in schema: Schema) -> (required: [CaptureSlot], optional: [CaptureSlot]) {
        switch self {
        case .users: return ([.user], [])
        case .posts: return ([.post], [.poster])
        case .timeline, .comments:
            let fields = endFields(in: schema)
            let fromPath = [CaptureSlot.user, .post].filter { fields[$0] == nil }
            if self == .comments {
                return (fromPath + (schema.comments?.key == nil ? [.id] : []), schema.comments?.key == nil ? [] : [.id])
            }
            return fields.isEmpty ? (fromPath, []) : (fromPath + [.id], [])
        default:
            guard let ends, edge(in: schema) != nil else { return ([], []) }
            let fields = endFields(in: schema)
            let fromPath = [ends.first, ends.second].filter { fields[$0] == nil }
            return (fromPath.isEmpty ? [.id] : fromPath, fromPath.isEmpty ? [] : [.id])
        }
    }

    /// The ends of a relation stored as pairs or rows: which capture (or row field) names each side.
    var ends: (first: CaptureSlot, second: CaptureSlot)? {
        switch self {
        case .likes, .likeMirror, .flags, .comments: (.post, .user)
        case .postMirror: (.user, .post)
        case .following, .followers: (.user, .target)
        case .timeline: (.user, .post)
        case .users, .posts: nil
        }
    }
}
