import FanoutCore
import FanoutJSON

/// The schema as the manifest describes it: which relations the export has, each with its pattern (also as
/// segments, so that a query can build any path of the relation, a missing timeline entry's included) and
/// the field paths the rules name in paths and messages (`like_count`, `poster/username`).
enum SchemaDescription {
    static func json(_ schema: Schema) -> JSONValue {
        var relations: [(key: String, value: JSONValue)] = []
        func add(_ name: String, _ pattern: PathPattern?, _ fields: [(String, FieldPath?)], extra: [(key: String, value: JSONValue)] = []) {
            guard let pattern else { return }
            let fieldMembers: [(key: String, value: JSONValue)] = fields.compactMap { role, path in path.map { (role, .string($0.description)) } }
            relations.append((name, .object([
                ("fields", .object(fieldMembers + extra)),
                ("path", .string(pattern.description)),
                ("segments", .array(pattern.segments.map { segment in
                    switch segment {
                    case .literal(let text): .object([("literal", .string(text))])
                    case .capture(let name): .object([("capture", .string(name))])
                    }
                })),
            ])))
        }
        if let users = schema.users {
            add("users", users.pattern, [("key", users.key), ("username", users.username), ("name", users.name),
                                         ("profile_image_url", users.profileImageURL)])
        }
        if let posts = schema.posts {
            var extra: [(key: String, value: JSONValue)] = [("required", .array(posts.required.map { .string($0.description) }))]
            if let time = posts.createdAt { extra.append(("created_at_unit", .string(time.unit.rawValue))) }
            add("posts", posts.pattern, [
                ("key", posts.key), ("owner", posts.owner), ("created_at", posts.createdAt?.field), ("caption", posts.caption),
                ("image_url", posts.imageURL), ("image_height", posts.imageHeight), ("like_count", posts.likeCount),
                ("poster_uid", posts.posterUID), ("poster_username", posts.posterUsername),
            ], extra: extra)
        }
        for (name, edge) in [("post_mirror", schema.postMirror), ("likes", schema.likes), ("like_mirror", schema.likeMirror),
                             ("following", schema.following), ("followers", schema.followers), ("flags", schema.flags)] {
            guard let edge else { continue }
            add(name, edge.pattern, [("key", edge.key), ("user", edge.user), ("post", edge.post), ("target", edge.target)])
        }
        if let timeline = schema.timeline { add("timeline", timeline.pattern, [("poster", timeline.posterUID)]) }
        return .object([
            ("edge_value", schema.edgeValue.json),
            ("format", .string(schema.format.rawValue)),
            ("name", .string(schema.name)),
            ("relations", .object(relations)),
        ])
    }
}
