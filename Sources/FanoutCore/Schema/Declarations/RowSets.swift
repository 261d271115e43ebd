/// The row sets of a schema's declarations, in a fixed order (each declaration's rows, then the originals and
/// targets they need, each once), and where each declaration's are.
public struct RowSets: Sendable, Equatable {
    /// The sets, in the order the walker numbers them.
    public private(set) var sets: [RowSet] = []

    public init(_ schema: Schema) {
        let declarations = schema.declarations
        for counter in declarations.counters {
            let (row, field) = counter.at.rowAndField
            add(
                RowSet(
                    name: counter.name, role: .rows, pattern: row, keyFields: [], value: .field(field),
                    fieldPart: field,
                    a: counter.per.flatMap { row.captureNames.firstIndex(of: $0) }, b: nil))
        }
        for mirror in declarations.mirrors {
            guard let (first, second) = mirror.of.pair else { continue }
            let fields = [first, second].compactMap { mirror.ends[$0] }
            let probe = RowSet(
                name: "", role: .rows, pattern: mirror.at, keyFields: fields, value: nil, fieldPart: FieldPath(""),
                a: nil, b: nil)
            add(
                RowSet(
                    name: mirror.name, role: .rows, pattern: mirror.at, keyFields: fields, value: nil,
                    fieldPart: FieldPath(""),
                    a: mirror.endSource(first).flatMap(probe.index(of:)),
                    b: mirror.endSource(second).flatMap(probe.index(of:))))
        }
        for copy in declarations.copies {
            let (row, field) = copy.at.rowAndField
            let keyFields: [FieldPath] = if case .field(let path) = copy.via { [path] } else { [] }
            let probe = RowSet(
                name: "", role: .rows, pattern: row, keyFields: keyFields, value: nil, fieldPart: field, a: nil, b: nil)
            add(
                RowSet(
                    name: copy.name, role: .rows, pattern: row, keyFields: keyFields, value: .field(field),
                    fieldPart: field,
                    a: probe.index(of: copy.via), b: nil))
            if let original = Self.original(copy.of, copy.field, in: schema) { add(original) }
        }
        for reference in declarations.references {
            let (row, field) = reference.at.rowAndField
            let keyFields = field.keys.isEmpty ? [] : [field]
            let source: KeySource = field.keys.isEmpty ? .capture(reference.to.keyName) : .field(field)
            let probe = RowSet(
                name: "", role: .rows, pattern: row, keyFields: keyFields, value: nil, fieldPart: field, a: nil, b: nil)
            add(
                RowSet(
                    name: reference.name, role: .rows, pattern: row, keyFields: keyFields, value: nil, fieldPart: field,
                    a: probe.index(of: source), b: nil))
            if case .pattern(let pattern) = reference.to {
                add(
                    RowSet(
                        name: pattern.description, role: .targets, pattern: pattern, keyFields: [], value: nil,
                        fieldPart: FieldPath(""),
                        a: pattern.captureNames.isEmpty ? nil : pattern.captureNames.count - 1, b: nil))
            }
        }
    }

    /// Adds `set` unless an equal one is there (copies of one field share their originals).
    private mutating func add(_ set: RowSet) {
        if !sets.contains(set) { sets.append(set) }
    }

    /// The index of the rows declaration `name` checks.
    public func rows(of name: String) -> Int? { sets.firstIndex { $0.role == .rows && $0.name == name } }

    /// The index of the values `copy` copies.
    public func originals(of copy: CopyDeclaration) -> Int? {
        sets.firstIndex { $0.role == .originals && $0.name == "\(copy.of.rawValue).\(copy.field)" }
    }

    /// The index of the records `reference` may name, when it names a pattern's.
    public func targets(of reference: ReferenceDeclaration) -> Int? {
        guard case .pattern(let pattern) = reference.to else { return nil }
        return sets.firstIndex { $0.role == .targets && $0.name == pattern.description }
    }

    /// The originals of `relation.field`: a row per record of the relation, keyed by the record's key (`a`), with
    /// the copied value. Nil when the schema does not place the relation or has no such field.
    static func original(_ relation: DeclaredRelation, _ field: String, in schema: Schema) -> RowSet? {
        guard let record = CopiedRecord(relation, in: schema), let source = record.fields[field] else { return nil }
        var keyFields: [FieldPath] = []
        func index(_ key: KeySource) -> Int? {
            switch key {
            case .capture(let name): return record.pattern.captureNames.firstIndex(of: name)
            case .field(let path):
                if let i = keyFields.firstIndex(of: path) { return record.pattern.captureNames.count + i }
                keyFields.append(path)
                return record.pattern.captureNames.count + keyFields.count - 1
            }
        }
        guard let a = index(record.key) else { return nil }
        let value: RowSet.Value
        switch source {
        case .value(let path): value = .field(path)
        case .key(let key):
            guard let i = index(key) else { return nil }
            value = .key(i)
        }
        return RowSet(
            name: "\(relation.rawValue).\(field)", role: .originals, pattern: record.pattern, keyFields: keyFields,
            value: value, fieldPart: FieldPath(""), a: a, b: nil)
    }
}

extension MirrorDeclaration {
    /// Where the mirror names `end`: a field of its row, else its capture (for posts, the owner may be captured
    /// as `{user}`); nil when neither.
    public func endSource(_ end: String) -> KeySource? {
        if let field = ends[end] { return .field(field) }
        let captured = at.captureNames
        if captured.contains(end) { return .capture(end) }
        if of == .posts, end == "poster", captured.contains("user") { return .capture("user") }
        return nil
    }
}

/// A record whose fields copies may copy: where it is, its key, and its fields by the names a schema file uses.
public struct CopiedRecord: Sendable {
    /// What a copied field is: a value stored in the record, or one of its keys.
    public enum Source: Sendable, Equatable {
        case value(FieldPath)
        case key(KeySource)
    }

    public let pattern: PathPattern
    public let key: KeySource
    public let fields: [String: Source]

    /// The record of `relation` in `schema`; nil for relations copies cannot name or that the schema lacks.
    public init?(_ relation: DeclaredRelation, in schema: Schema) {
        var fields: [String: Source] = [:]
        func add(_ name: String, _ path: FieldPath?) { if let path { fields[name] = .value(path) } }
        switch relation {
        case .users:
            guard let users = schema.users else { return nil }
            pattern = users.pattern
            key = users.key.map(KeySource.field) ?? .capture("user")
            for (name, path) in users.fields { add(name, path) }
            add("username", users.username)
            add("name", users.name)
            add("profile_image_url", users.profileImageURL)
        case .posts:
            guard let posts = schema.posts else { return nil }
            pattern = posts.pattern
            key = posts.key.map(KeySource.field) ?? .capture("post")
            for (name, path) in posts.fields { add(name, path) }
            add("caption", posts.caption)
            add("created_at", posts.createdAt?.field)
            add("image_url", posts.imageURL)
            add("image_height", posts.imageHeight)
            add("like_count", posts.likeCount)
            add("poster_uid", posts.posterUID)
            add("poster_username", posts.posterUsername)
            fields["poster"] = .key(posts.owner.map(KeySource.field) ?? .capture("poster"))
        case .comments:
            guard let comments = schema.comments else { return nil }
            pattern = comments.pattern
            key = comments.key.map(KeySource.field) ?? .capture("id")
            for (name, path) in comments.fields { add(name, path) }
            add("text", comments.text)
            add("created_at", comments.createdAt?.field)
            fields["post"] = .key(comments.post.map(KeySource.field) ?? .capture("post"))
            fields["user"] = .key(comments.user.map(KeySource.field) ?? .capture("user"))
        case .likes, .follows, .timeline, .flags:
            return nil
        }
        fields["key"] = .key(key)
        self.fields = fields
    }
}
