import FanoutCore

/// The relations a schema can place in the tree.
enum RelationKind: Int, CaseIterable {
    case users, posts, postMirror, likes, likeMirror, following, followers, timeline, flags

    /// The edge relation of this kind in `schema`, for the kinds that are edges.
    func edge(in schema: Schema) -> EdgeRelation? {
        switch self {
        case .postMirror: schema.postMirror
        case .likes: schema.likes
        case .likeMirror: schema.likeMirror
        case .following: schema.following
        case .followers: schema.followers
        case .flags: schema.flags
        case .users, .posts, .timeline: nil
        }
    }

    /// The pattern of this kind in `schema`, if the schema has the relation.
    func pattern(in schema: Schema) -> PathPattern? {
        switch self {
        case .users: schema.users?.pattern
        case .posts: schema.posts?.pattern
        case .timeline: schema.timeline?.pattern
        default: edge(in: schema)?.pattern
        }
    }

    /// The captures the relation's pattern must and may have in `schema`. An edge end that the schema reads
    /// from a field of the row must not be captured too; a row whose ends are both fields needs `{id}`, its key.
    func captures(in schema: Schema) -> (required: [CaptureSlot], optional: [CaptureSlot]) {
        switch self {
        case .users: return ([.user], [])
        case .posts: return ([.post], [.poster])
        case .timeline: return ([.user, .post], [])
        default:
            guard let ends, let edge = edge(in: schema) else { return ([], []) }
            let fromPath = [ends.first, ends.second].filter { !edge.hasField(for: $0) }
            return (fromPath.isEmpty ? [.id] : fromPath, fromPath.isEmpty ? [] : [.id])
        }
    }

    /// The ends of an edge kind: which capture (or row field) names each side.
    var ends: (first: CaptureSlot, second: CaptureSlot)? {
        switch self {
        case .likes, .likeMirror, .flags: (.post, .user)
        case .postMirror: (.user, .post)
        case .following, .followers: (.user, .target)
        case .users, .posts, .timeline: nil
        }
    }
}
