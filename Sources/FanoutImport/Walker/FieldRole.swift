import FanoutCore

/// What a field means to the relation that reads it. Each relation has its own slot per role (see
/// ``FieldRole/slot(_:_:)``), so the fields of nested entities of different relations never share storage.
enum FieldRole: Int, CaseIterable {
    /// The entity's own key, read from a field (Parse's `objectId`) instead of the key it is stored under.
    case key
    case username, name, profileImageURL
    case owner, createdAt, caption, imageURL, imageHeight, likeCount, posterUID, posterUsername
    case timelinePoster
    /// The ends of an edge stored as a row (Parse's `fromUser`, `toPost`, `toUser` pointers).
    case user, post, target
    /// A comment's text.
    case text

    /// The index of `role`'s value for `relation` in the walker's value array.
    static func slot(_ relation: RelationKind, _ role: FieldRole) -> Int {
        relation.rawValue * allCases.count + role.rawValue
    }

    /// The number of value slots of the relations (the declarations' row sets have theirs after them).
    static var slotCount: Int { RelationKind.allCases.count * allCases.count }

    /// Whether the field's value names a key (and is interned as it is read).
    var isKey: Bool {
        switch self {
        case .key, .owner, .posterUID, .timelinePoster, .user, .post, .target: true
        default: false
        }
    }

    /// The role of value slot `slot`.
    static func role(ofSlot slot: Int) -> FieldRole { allCases[slot % allCases.count] }

    /// The JSON type the field must have, as `post-field` names it.
    var expectedType: String {
        switch self {
        case .imageHeight, .likeCount: "number"
        default: "string"
        }
    }

    /// The field paths the schema gives `relation`, and their roles.
    static func fields(of relation: RelationKind, in schema: Schema) -> [(FieldPath, FieldRole)] {
        let pairs: [(FieldPath?, FieldRole)]
        switch relation {
        case .users:
            guard let users = schema.users else { return [] }
            pairs = [
                (users.key, .key), (users.username, .username), (users.name, .name),
                (users.profileImageURL, .profileImageURL),
            ]
        case .posts:
            guard let posts = schema.posts else { return [] }
            pairs = [
                (posts.key, .key), (posts.owner, .owner), (posts.createdAt?.field, .createdAt),
                (posts.caption, .caption),
                (posts.imageURL, .imageURL), (posts.imageHeight, .imageHeight), (posts.likeCount, .likeCount),
                (posts.posterUID, .posterUID), (posts.posterUsername, .posterUsername),
            ]
        case .timeline:
            guard let timeline = schema.timeline else { return [] }
            pairs = [(timeline.posterUID, .timelinePoster), (timeline.user, .user), (timeline.post, .post)]
        case .comments:
            guard let comments = schema.comments else { return [] }
            pairs = [
                (comments.key, .key), (comments.user, .user), (comments.post, .post), (comments.text, .text),
                (comments.createdAt?.field, .createdAt),
            ]
        case .likes, .likeMirror, .following, .followers, .postMirror, .flags:
            guard let edge = relation.edge(in: schema) else { return [] }
            pairs = [(edge.key, .key), (edge.user, .user), (edge.post, .post), (edge.target, .target)]
        }
        return pairs.compactMap { path, role in path.map { ($0, role) } }
    }
}
