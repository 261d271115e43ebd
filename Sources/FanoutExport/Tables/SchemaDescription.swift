import FanoutCore
import FanoutJSON
import Foundation

/// The schema as the manifest describes it: which relations the export has, each with its pattern (also as
/// segments, so that a query can build any path of the relation, a missing timeline entry's included) and
/// the field paths the rules name in paths and messages (`like_count`, `poster/username`).
enum SchemaDescription {
    static func json(_ schema: Schema) -> JSONValue {
        var relations: [(key: String, value: JSONValue)] = []
        func add(
            _ name: String, _ pattern: PathPattern?, _ fields: [(String, FieldPath?)],
            extra: [(key: String, value: JSONValue)] = []
        ) {
            guard let pattern else { return }
            let fieldMembers: [(key: String, value: JSONValue)] = fields.compactMap { role, path in
                path.map { (role, .string($0.description)) }
            }
            relations.append(
                (
                    name,
                    .object([
                        ("fields", .object(fieldMembers + extra)),
                        ("path", .string(pattern.description)),
                        (
                            "segments",
                            .array(
                                pattern.segments.map { segment in
                                    switch segment {
                                    case .literal(let text): .object([("literal", .string(text))])
                                    case .capture(let name): .object([("capture", .string(name))])
                                    }
                                })
                        ),
                    ])
                ))
        }
        func named(_ fields: [String: FieldPath]) -> [(key: String, value: JSONValue)] {
            fields.isEmpty
                ? []
                : [
                    (
                        "named",
                        .object(fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.description)) })
                    )
                ]
        }
        if let users = schema.users {
            add(
                "users", users.pattern,
                [
                    ("key", users.key), ("username", users.username), ("name", users.name),
                    ("profile_image_url", users.profileImageURL),
                ], extra: named(users.fields))
        }
        if let posts = schema.posts {
            var extra: [(key: String, value: JSONValue)] =
                [("required", .array(posts.required.map { .string($0.description) }))] + named(posts.fields)
            if let time = posts.createdAt { extra.append(("created_at_unit", .string(time.unit.rawValue))) }
            add(
                "posts", posts.pattern,
                [
                    ("key", posts.key), ("owner", posts.owner), ("created_at", posts.createdAt?.field),
                    ("caption", posts.caption),
                    ("image_url", posts.imageURL), ("image_height", posts.imageHeight), ("like_count", posts.likeCount),
                    ("poster_uid", posts.posterUID), ("poster_username", posts.posterUsername),
                ], extra: extra)
        }
        for (name, edge) in [
            ("post_mirror", schema.postMirror), ("likes", schema.likes), ("like_mirror", schema.likeMirror),
            ("following", schema.following), ("followers", schema.followers), ("flags", schema.flags),
        ] {
            guard let edge else { continue }
            add(
                name, edge.pattern,
                [("key", edge.key), ("user", edge.user), ("post", edge.post), ("target", edge.target)])
        }
        if let timeline = schema.timeline {
            add(
                "timeline", timeline.pattern,
                [("poster", timeline.posterUID), ("post", timeline.post), ("user", timeline.user)])
        }
        if let comments = schema.comments {
            add(
                "comments", comments.pattern,
                [
                    ("key", comments.key), ("user", comments.user), ("post", comments.post), ("text", comments.text),
                    ("created_at", comments.createdAt?.field),
                ],
                extra: (comments.createdAt.map { [("created_at_unit", JSONValue.string($0.unit.rawValue))] } ?? [])
                    + named(comments.fields))
        }
        var members: [(key: String, value: JSONValue)] = [
            ("edge_value", schema.edgeValue.json),
            ("format", .string(schema.format.rawValue)),
            ("name", .string(schema.name)),
            ("relations", .object(relations)),
        ]
        if !schema.records.isEmpty {
            members.append(
                (
                    "records",
                    .array(
                        schema.records.map { record in
                            .object(
                                [("name", .string(record.name)), ("path", .string(record.pattern.description))]
                                    + (record.key.map { [("key", JSONValue.string($0.description))] } ?? [])
                                    + named(record.fields))
                        })
                ))
        }
        if !schema.declarations.isEmpty {
            members.insert(("declarations", DeclarationsDescription.json(schema.declarations)), at: 0)
        }
        return .object(members)
    }
}

/// A tables folder's manifest, read back: the export it was made from and its schema, so that `fanout sql` writes
/// queries for exactly the relations the tables have (docs/tables.md).
public struct TableManifest: Sendable {
    /// The export's name as `fanout tables` was given it (nil for standard input).
    public let exportName: String?
    /// The schema the tables were read with (the relations and fields the queries need).
    public let schema: Schema

    /// Reads `DIR/_manifest.json`; a message naming the file and the problem when it is missing or not a manifest.
    public static func read(folder: String) throws(ManifestError) -> TableManifest {
        let path = folder.hasSuffix("/") ? folder + TableExport.manifestName : folder + "/" + TableExport.manifestName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ManifestError(
                message:
                    "\(folder): not a tables folder (no \(TableExport.manifestName)); give the folder `fanout tables` wrote"
            )
        }
        let root: JSONValue
        do {
            root = try data.withUnsafeBytes { (bytes) throws(JSONSyntaxError) in try JSONValue.parse(bytes) }
        } catch {
            throw ManifestError(message: "\(path): \(error)")
        }
        guard root["tool"]?.stringValue == "fanout", let version = root["format_version"]?.numberValue?.int64 else {
            throw ManifestError(
                message: "\(path): not a manifest of `fanout tables` (no \"tool\": \"fanout\" and \"format_version\")")
        }
        guard version == Int64(TableExport.formatVersion) else {
            throw ManifestError(
                message:
                    "\(path): format_version \(version) is not \(TableExport.formatVersion), the one this fanout reads")
        }
        guard let described = root["schema"], let schema = SchemaDescription.schema(described) else {
            throw ManifestError(message: "\(path): its \"schema\" is not a schema description of `fanout tables`")
        }
        return TableManifest(exportName: root["export"]?["name"]?.stringValue, schema: schema)
    }
}

/// A tables folder whose manifest cannot be read.
public struct ManifestError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

extension SchemaDescription {
    /// The schema `json(_:)` describes; nil when a relation's pattern or a field is malformed.
    static func schema(_ value: JSONValue) -> Schema? {
        guard let name = value["name"]?.stringValue, let relations = value["relations"] else { return nil }
        var schema = Schema(name: name, format: value["format"]?.stringValue == "parse" ? .parse : .firebase)
        schema.edgeValue = value["edge_value"]?.boolValue == true ? .true : .one
        func pattern(_ relation: String) -> (PathPattern, (String) -> FieldPath?)? {
            guard let node = relations[relation], let text = node["path"]?.stringValue, let pattern = PathPattern(text)
            else { return nil }
            return (pattern, { node["fields"]?[$0]?.stringValue.map(FieldPath.init) })
        }
        if let (p, field) = pattern("users") {
            schema.users = UserRelation(
                pattern: p, username: field("username"), name: field("name"),
                profileImageURL: field("profile_image_url"), key: field("key"))
        }
        if let (p, field) = pattern("posts") {
            let unit = relations["posts"]?["fields"]?["created_at_unit"]?.stringValue.flatMap(
                TimeField.Unit.init(rawValue:))
            let required =
                relations["posts"]?["fields"]?["required"]?.arrayValue?.compactMap {
                    $0.stringValue.map(FieldPath.init)
                } ?? []
            schema.posts = PostRelation(
                pattern: p, owner: field("owner"),
                createdAt: field("created_at").map { TimeField($0, unit: unit ?? .seconds) },
                caption: field("caption"), imageURL: field("image_url"), imageHeight: field("image_height"),
                likeCount: field("like_count"), posterUID: field("poster_uid"),
                posterUsername: field("poster_username"),
                required: required, key: field("key"))
        }
        func edge(_ name: String) -> EdgeRelation? {
            pattern(name).map { p, field in
                EdgeRelation(
                    pattern: p, user: field("user"), post: field("post"), target: field("target"), key: field("key"))
            }
        }
        schema.postMirror = edge("post_mirror")
        schema.likes = edge("likes")
        schema.likeMirror = edge("like_mirror")
        schema.following = edge("following")
        schema.followers = edge("followers")
        schema.flags = edge("flags")
        func named(_ relation: String) -> [String: FieldPath] {
            var fields: [String: FieldPath] = [:]
            for (name, path) in relations[relation]?["fields"]?["named"]?.objectMembers ?? [] {
                if let text = path.stringValue { fields[name] = FieldPath(text) }
            }
            return fields
        }
        schema.users?.fields = named("users")
        schema.posts?.fields = named("posts")
        if let (p, field) = pattern("timeline") {
            schema.timeline = TimelineRelation(
                pattern: p, posterUID: field("poster"), post: field("post"), user: field("user"))
        }
        if let (p, field) = pattern("comments") {
            let unit = relations["comments"]?["fields"]?["created_at_unit"]?.stringValue.flatMap(
                TimeField.Unit.init(rawValue:))
            schema.comments = CommentRelation(
                pattern: p, post: field("post"), user: field("user"), key: field("key"), text: field("text"),
                createdAt: field("created_at").map { TimeField($0, unit: unit ?? .seconds) }, fields: named("comments"))
        }
        for record in value["records"]?.arrayValue ?? [] {
            guard let name = record["name"]?.stringValue,
                let pattern = record["path"]?.stringValue.flatMap(PathPattern.init)
            else { return nil }
            var fields: [String: FieldPath] = [:]
            for (field, path) in record["named"]?.objectMembers ?? [] {
                if let text = path.stringValue { fields[field] = FieldPath(text) }
            }
            schema.records.append(
                RecordRelation(
                    name: name, pattern: pattern, key: record["key"]?.stringValue.map(FieldPath.init), fields: fields))
        }
        if let declarations = value["declarations"] {
            guard let read = DeclarationsDescription.declarations(declarations, in: schema) else { return nil }
            schema.declarations = read
        }
        return schema
    }
}
