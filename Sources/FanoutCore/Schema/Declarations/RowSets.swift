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
            if counter.countsRecords, let records = Self.records(counter.counts, by: counter.per, in: schema) {
                add(records)
            }
        }
        for mirror in declarations.mirrors {
            let (first, second) = mirror.pair
            if mirror.of.recordsName != nil, let records = Self.records(mirror.of, by: first, in: schema) {
                add(records)
            }
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
            if case .records(let name, _) = reference.to,
                let records = Self.records(.records(name), by: nil, in: schema)
            {
                add(records)
            } else if case .pattern(let pattern) = reference.to {
                add(
                    RowSet(
                        name: pattern.description, role: .targets, pattern: pattern, keyFields: [], value: nil,
                        fieldPart: FieldPath(""),
                        a: pattern.captureNames.isEmpty ? nil : pattern.captureNames.count - 1, b: nil))
            }
        }
        // Every collection is read, so that `fanout tables` and `diff` have its records without a declaration.
        for record in schema.records {
            if let records = Self.records(.records(record.name), by: nil, in: schema) { add(records) }
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
        switch reference.to {
        case .pattern(let pattern): sets.firstIndex { $0.role == .targets && $0.name == pattern.description }
        case .records(let name, _): records(of: .records(name), by: nil)
        case .users, .posts, .comments: nil
        }
    }

    /// The index of the records of `relation` keyed by their key (`a`) and grouped by `group` (`b`).
    public func records(of relation: DeclaredRelation, by group: String?) -> Int? {
        let name = RowSet.recordsName(relation, by: group)
        return sets.firstIndex { $0.role == .records && $0.name == name }
    }

    /// The records of `relation` (a collection of `[records.NAME]`, or users, posts and comments grouped by one of
    /// their fields): a row per record, its key as `a` and, with `group`, the key that end names as `b`. Nil when
    /// the schema does not place the relation or has no such end.
    static func records(_ relation: DeclaredRelation, by group: String?, in schema: Schema) -> RowSet? {
        guard let record = CopiedRecord(relation, in: schema) else { return nil }
        var keys = RowKeys(pattern: record.pattern)
        guard let a = keys.index(record.key) else { return nil }
        var b: Int?
        if let group {
            switch record.fields[group] {
            case .value(let path)?: b = keys.index(.field(path))
            case .key(let source)?: b = keys.index(source)
            case nil: return nil
            }
        }
        return RowSet(
            name: RowSet.recordsName(relation, by: group), role: .records, pattern: record.pattern,
            keyFields: keys.fields, value: nil, fieldPart: FieldPath(""), a: a, b: b)
    }

    /// The originals of `relation.field`: a row per record of the relation, keyed by the record's key (`a`), with
    /// the copied value. Nil when the schema does not place the relation or has no such field.
    static func original(_ relation: DeclaredRelation, _ field: String, in schema: Schema) -> RowSet? {
        guard let record = CopiedRecord(relation, in: schema), let source = record.fields[field] else { return nil }
        var keys = RowKeys(pattern: record.pattern)
        guard let a = keys.index(record.key) else { return nil }
        let value: RowSet.Value
        switch source {
        case .value(let path): value = .field(path)
        case .key(let key):
            guard let i = keys.index(key) else { return nil }
            value = .key(i)
        }
        return RowSet(
            name: "\(relation.rawValue).\(field)", role: .originals, pattern: record.pattern, keyFields: keys.fields,
            value: value, fieldPart: FieldPath(""), a: a, b: nil)
    }
}

/// The keys a row set of a record keeps, found as they are asked for: its pattern's captures, then the fields
/// added on first use.
private struct RowKeys {
    let pattern: PathPattern
    var fields: [FieldPath] = []

    /// The index among the row's keys of `key`, adding a field the first time; nil for a capture the pattern lacks.
    mutating func index(_ key: KeySource) -> Int? {
        switch key {
        case .capture(let name): return pattern.captureNames.firstIndex(of: name)
        case .field(let path):
            if let i = fields.firstIndex(of: path) { return pattern.captureNames.count + i }
            fields.append(path)
            return pattern.captureNames.count + fields.count - 1
        }
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
        case .records(let name):
            guard let records = schema.record(named: name) else { return nil }
            pattern = records.pattern
            key = records.key.map(KeySource.field) ?? .capture(records.keyName)
            for (name, path) in records.fields { add(name, path) }
            for name in records.pattern.captureNames where name != records.keyName {
                fields[name] = .key(.capture(name))
            }
        case .likes, .follows, .timeline, .flags:
            return nil
        }
        fields["key"] = .key(key)
        self.fields = fields
    }
}
