import FanoutCore
import TOMLKit

/// Turns a parsed TOML table into a ``Schema``, checking every key and value.
struct SchemaFileParser {
    let source: String
    let map: TOMLSourceMap

    static let rootKeys = [
        "name", "summary", "format", "edge_value", "users", "posts", "likes", "follows", "timeline", "flags",
        "comments",
        "records", "counters", "mirrors", "copies", "references",
    ]

    /// An error about the key at `path`, with the line it is written on.
    func fail(_ path: [String], _ message: String) -> InputError {
        let key = TOMLSourceMap.text(of: path)
        guard let line = map.line(of: path) else { return .schema("\(source): \(key): \(message)") }
        return .schema("\(source): line \(line): \(key): \(message)")
    }

    func schema(from root: TOMLTable, defaultName: String) throws(InputError) -> Schema {
        let top = Entries(table: root, path: [], parser: self)
        try top.allowOnly(Self.rootKeys)
        var schema = Schema(name: try top.string("name") ?? defaultName)
        schema.summary = try top.string("summary")
        if let format = try top.string("format") {
            guard let value = ExportFormat(rawValue: format) else {
                throw fail(
                    ["format"],
                    "\"\(format)\" is not a format; use firebase (one JSON tree) or parse (a folder or zip of class files)"
                )
            }
            schema.format = value
        }
        if let value = try top.edgeValue("edge_value") { schema.edgeValue = value }
        if let users = try top.relation(
            "users", keys: ["path", "key", "username", "name", "profile_image_url", "fields"])
        {
            schema.users = UserRelation(
                pattern: try users.pattern(), username: try users.field("username"), name: try users.field("name"),
                profileImageURL: try users.field("profile_image_url"), key: try users.field("key"))
            schema.users?.fields = try users.namedFields("fields")
        }
        if let posts = try top.relation(
            "posts",
            keys: [
                "path", "key", "poster", "created_at", "caption", "image_url", "image_height", "like_count",
                "poster_uid",
                "poster_username", "required", "mirror", "fields",
            ])
        {
            schema.posts = PostRelation(
                pattern: try posts.pattern(), owner: try posts.field("poster"), createdAt: try posts.time("created_at"),
                caption: try posts.field("caption"), imageURL: try posts.field("image_url"),
                imageHeight: try posts.field("image_height"), likeCount: try posts.field("like_count"),
                posterUID: try posts.field("poster_uid"), posterUsername: try posts.field("poster_username"),
                required: try posts.fields("required"), key: try posts.field("key"))
            schema.posts?.fields = try posts.namedFields("fields")
            schema.postMirror = try posts.edge("mirror", ends: ["user", "post"])
        }
        if let likes = try top.relation("likes", keys: ["path", "key", "user", "post", "mirror"]) {
            schema.likes = try likes.edgeRelation(ends: ["user", "post"])
            schema.likeMirror = try likes.edge("mirror", ends: ["user", "post"])
        }
        if let follows = try top.table("follows") {
            try follows.allowOnly(["following", "followers"])
            schema.following = try follows.edge("following", ends: ["user", "target"])
            schema.followers = try follows.edge("followers", ends: ["user", "target"])
            if schema.following == nil && schema.followers == nil {
                throw fail(
                    ["follows"],
                    "name where follows are stored: following = \"…/{user}/…/{target}\" and/or followers = \"…\"")
            }
        }
        if let timeline = try top.relation("timeline", keys: ["path", "poster", "post", "user"]) {
            schema.timeline = TimelineRelation(
                pattern: try timeline.pattern(), posterUID: try timeline.field("poster"),
                post: try timeline.field("post"),
                user: try timeline.field("user"))
        }
        if let comments = try top.relation(
            "comments", keys: ["path", "key", "user", "post", "text", "created_at", "fields"])
        {
            schema.comments = CommentRelation(
                pattern: try comments.pattern(), post: try comments.field("post"), user: try comments.field("user"),
                key: try comments.field("key"), text: try comments.field("text"),
                createdAt: try comments.time("created_at"),
                fields: try comments.namedFields("fields"))
        }
        if let flags = try top.relation("flags", keys: ["path", "key", "user", "post"]) {
            schema.flags = try flags.edgeRelation(ends: ["user", "post"])
        }
        schema.records = try records(from: top)
        if RelationKind.allCases.allSatisfy({ $0.pattern(in: schema) == nil }) && schema.records.isEmpty {
            let what = root.isEmpty ? "the file is empty" : "the schema places no relation"
            throw InputError.schema(
                "\(source): \(what), so it would read nothing from an export. A schema file says "
                    + "where each relation is, at least users and posts, e.g. [users] path = \"users/{user}\" and [posts] "
                    + "path = \"posts/{poster}/{post}\"; `fanout schemas show \(Presets.names[0])` prints a complete one to "
                    + "start from, and docs/layouts.md (\"Schema files\") documents every key")
        }
        try validate(schema)
        schema.declarations = try declarations(from: top, schema: schema)
        try validateCaptureNames(schema)
        return schema
    }

    /// An error about the value at `path` as the file writes it: a relation's pattern is `users.path`, or just
    /// `users` when written in the short form `users = "…"`.
    func failAtWritten(_ path: [String], _ message: String) -> InputError {
        fail(map.writtenKey(path) ?? path, message)
    }

    /// Where each relation's pattern is written, for messages about it.
    static func location(of relation: RelationKind) -> [String] {
        switch relation {
        case .users: ["users", "path"]
        case .posts: ["posts", "path"]
        case .postMirror: ["posts", "mirror"]
        case .likes: ["likes", "path"]
        case .likeMirror: ["likes", "mirror"]
        case .following: ["follows", "following"]
        case .followers: ["follows", "followers"]
        case .timeline: ["timeline", "path"]
        case .flags: ["flags", "path"]
        case .comments: ["comments", "path"]
        }
    }

    /// Checks what no single key can: each pattern's captures against what its relation needs.
    private func validate(_ schema: Schema) throws(InputError) {
        for relation in RelationKind.allCases {
            guard let pattern = relation.pattern(in: schema) else { continue }
            let at = Self.location(of: relation)
            let (required, optional) = relation.captures(in: schema)
            var seen: Set<String> = []
            for name in pattern.captureNames {
                guard seen.insert(name).inserted else {
                    throw failAtWritten(at, "\"\(pattern)\" captures {\(name)} twice")
                }
                guard let slot = CaptureSlot(name: name), required.contains(slot) || optional.contains(slot) else {
                    let allowed = (required + optional).map { "{\($0)}" }.joined(separator: ", ")
                    let readFromField = CaptureSlot(name: name).map { relation.hasField(for: $0, in: schema) } ?? false
                    let fieldNote = readFromField ? " ({\(name)} is already read from a field)" : ""
                    throw failAtWritten(
                        at, "\"\(pattern)\" uses {\(name)}\(fieldNote); this relation captures \(allowed)")
                }
            }
            for slot in required where !seen.contains("\(slot)") {
                let hint =
                    relation.readsEndsFromFields && slot != .id
                    ? ", or read it from a field of the row (\(slot) = \"…\")" : ""
                throw failAtWritten(at, "\"\(pattern)\" must capture {\(slot)}\(hint)")
            }
            if schema.format == .parse, case .capture? = pattern.segments.first {
                throw failAtWritten(
                    at, "\"\(pattern)\" must start with the class name (a Parse export has one file per class)")
            }
        }
        if let posts = schema.posts {
            let captured = posts.pattern.captureNames.contains("poster")
            if captured && posts.owner != nil {
                throw fail(["posts", "poster"], "the path already captures {poster}; name the owner in one place only")
            }
            if !captured && posts.owner == nil {
                throw failAtWritten(
                    ["posts", "path"],
                    "posts need an owner: capture {poster} in the path or name the owner's field (poster = \"ownerUid\")"
                )
            }
        }
    }

    /// The walker keeps the keys a path captures in a few slots: the relations' own names, and at most
    /// ``CaptureSlot/otherCount`` other names in the declarations' patterns.
    private func validateCaptureNames(_ schema: Schema) throws(InputError) {
        var others: [String] = []
        for set in RowSets(schema).sets {
            for name in set.pattern.captureNames where CaptureSlot(name: name) == nil && !others.contains(name) {
                others.append(name)
            }
        }
        guard others.count <= CaptureSlot.otherCount else {
            throw InputError.schema(
                "\(source): the declarations' patterns capture \(others.count) names besides user, post, poster, "
                    + "target and id (\(others.map { "{\($0)}" }.joined(separator: ", "))); use at most \(CaptureSlot.otherCount), "
                    + "reusing names where the patterns do not share a path")
        }
    }
}
