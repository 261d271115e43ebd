/// Reasons a rule cannot run on a schema, phrased for the report's "skipped rules" list.
enum Requirement {
    static func users(_ schema: Schema) -> String? {
        schema.users == nil ? "the schema has no users relation" : nil
    }

    static func posts(_ schema: Schema) -> String? {
        schema.posts == nil ? "the schema has no posts relation" : nil
    }

    static func posts(_ schema: Schema, field: KeyPath<PostRelation, FieldPath?>, _ what: String) -> String? {
        guard let posts = schema.posts else { return "the schema has no posts relation" }
        return posts[keyPath: field] == nil ? "the schema's posts have no \(what)" : nil
    }

    static func likes(_ schema: Schema) -> String? {
        schema.likes == nil ? "the schema has no likes relation" : nil
    }

    static func likeMirror(_ schema: Schema) -> String? {
        schema.likeMirror == nil ? "the schema has no like mirror relation (user-likes)" : nil
    }

    static func follows(_ schema: Schema) -> String? {
        schema.following == nil && schema.followers == nil ? "the schema has no following or followers relation" : nil
    }

    static func timeline(_ schema: Schema) -> String? {
        schema.timeline == nil ? "the schema has no stored timeline relation" : nil
    }

    static func firebaseTree(_ schema: Schema) -> String? {
        schema.format == .firebase ? nil : "the \(schema.format.rawValue) layout is not a Firebase tree"
    }
}
