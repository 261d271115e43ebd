import FanoutCore

/// Every field Fanout reads, numbered so that nested entities of different relations never share storage.
enum FieldSlot: Int, CaseIterable {
    case username, name, profileImageURL
    case owner, createdAt, caption, imageURL, imageHeight, likeCount, posterUID, posterUsername
    case timelinePoster

    /// The JSON type the field must have, as `post-field` names it.
    var expectedType: String {
        switch self {
        case .imageHeight, .likeCount: "number"
        default: "string"
        }
    }

    /// The field paths the schema gives each relation, and their slots.
    static func fields(of relation: RelationKind, in schema: Schema) -> [(FieldPath, FieldSlot)] {
        switch relation {
        case .users:
            guard let users = schema.users else { return [] }
            return [(users.username, .username), (users.name, .name), (users.profileImageURL, .profileImageURL)]
                .compactMap { path, slot in path.map { ($0, slot) } }
        case .posts:
            guard let posts = schema.posts else { return [] }
            return [
                (posts.owner, .owner), (posts.createdAt?.field, .createdAt), (posts.caption, .caption),
                (posts.imageURL, .imageURL), (posts.imageHeight, .imageHeight), (posts.likeCount, .likeCount),
                (posts.posterUID, .posterUID), (posts.posterUsername, .posterUsername),
            ].compactMap { path, slot in path.map { ($0, slot) } }
        case .timeline:
            guard let path = schema.timeline?.posterUID else { return [] }
            return [(path, .timelinePoster)]
        case .likes, .likeMirror, .following, .followers:
            return []
        }
    }
}
