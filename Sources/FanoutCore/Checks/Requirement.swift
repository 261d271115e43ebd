/// Reasons a rule cannot run on a schema, phrased for the report's "skipped rules" list. Each names, in
/// brackets, the schema file key that would enable the rule.
enum Requirement {
    static func users(_ schema: Schema) -> String? {
        schema.users == nil ? "the schema has no users relation ([users] path)" : nil
    }

    static func posts(_ schema: Schema) -> String? {
        schema.posts == nil ? "the schema has no posts relation ([posts] path)" : nil
    }

    static func posts(
        _ schema: Schema, field: KeyPath<PostRelation, FieldPath?>, _ what: String, key: String
    ) -> String? {
        guard let posts = schema.posts else { return "the schema has no posts relation ([posts] path)" }
        return posts[keyPath: field] == nil ? "the schema's posts have no \(what) ([posts] \(key))" : nil
    }

    static func likes(_ schema: Schema) -> String? {
        schema.likes == nil ? "the schema has no likes relation ([likes] path)" : nil
    }

    static func likeMirror(_ schema: Schema) -> String? {
        schema.likeMirror == nil ? "the schema has no like mirror relation, such as user-likes ([likes] mirror)" : nil
    }

    static func follows(_ schema: Schema) -> String? {
        schema.following == nil && schema.followers == nil
            ? "the schema has no following or followers relation ([follows] following, followers)" : nil
    }

    static func timeline(_ schema: Schema) -> String? {
        schema.timeline == nil ? "the schema has no stored timeline relation ([timeline] path)" : nil
    }

    static func firebaseTree(_ schema: Schema) -> String? {
        schema.format == .firebase ? nil : "the \(schema.format.rawValue) layout is not a Firebase tree"
    }
}
