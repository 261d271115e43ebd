import FanoutCore
import FanoutJSON

/// What a walk found of each relation of the schema: a relation whose path reached no node is most often a
/// schema that does not fit the export (`members/{user}` where the app writes `users/{uid}`), rarely an export
/// that has nothing of that kind; either way the user is told, rather than shown every post's owner as unknown.
struct RelationMatches {
    let schema: Schema
    /// Per relation (``RelationKind/rawValue``), the nodes its pattern reached.
    let counts: [Int]
    /// Per declared row set (``RowSets``), the rows that held what the declaration reads.
    var declaredCounts: [Int] = []

    /// The schema's relations whose pattern matched nothing, in the schema's order.
    var unmatched: [RelationKind] {
        RelationKind.allCases.filter { $0.pattern(in: schema) != nil && counts[$0.rawValue] == 0 }
    }

    /// A declaration's rows as the schema file writes them: `[[counters]] tweet-count at "users/{poster}/tweetCount"`.
    func described(_ set: RowSet) -> String {
        let declarations = schema.declarations
        if set.role == .targets { return "[[references]] to \"\(set.pattern)\"" }
        if set.role == .records {
            return "[records.\(set.name.split(separator: ".")[0])] path \"\(set.pattern)\""
        }
        let kind =
            declarations.counters.contains { $0.name == set.name }
            ? "counters"
            : declarations.mirrors.contains { $0.name == set.name }
                ? "mirrors"
                : declarations.copies.contains { $0.name == set.name } ? "copies" : "references"
        let at = set.fieldPart.keys.isEmpty ? set.pattern.description : "\(set.pattern)/\(set.fieldPart)"
        return "[[\(kind)]] \(set.name) at \"\(at)\""
    }

    /// The relation as the schema file writes it: `[users] path "members/{user}"`.
    func described(_ relation: RelationKind) -> String {
        let at = SchemaFileParser.location(of: relation)
        return "[\(at[0])] \(at[1]) \"\(relation.pattern(in: schema).map { "\($0)" } ?? "")\""
    }

    /// Fails when `users` matched nothing while other relations matched something: every user the export names
    /// would be unknown, and the report would be one finding per post, like and follow. Reports the other
    /// relations that matched nothing through `warn`. `found` says what the export has instead (its top-level
    /// keys), unless `nearest` says where a pattern stops matching (``NearestKeys``); `source` names the export.
    func check(
        source: String, found: String, nearest: ((PathPattern) -> String?)? = nil,
        firstRow: ((PathPattern) -> RowShape?)? = nil, warn: ((String) -> Void)?
    ) throws(InputError) {
        let unmatched = self.unmatched
        if unmatched.contains(.users), counts.contains(where: { $0 > 0 }) {
            throw InputError.layout(
                source: source,
                message: "\(described(.users)) matched nothing, so every user the export names would be unknown; "
                    + "\(found). Check the schema's users path (see `fanout schemas show \(Presets.names[0])`)")
        }
        guard let warn else { return }
        for relation in unmatched {
            let instead = relation.pattern(in: schema).flatMap { nearest?($0) } ?? found
            warn("\(source): \(described(relation)) matched nothing; \(instead)")
        }
        for (set, count) in zip(RowSets(schema).sets, declaredCounts)
        where count == 0 && set.role != .originals && !(set.role == .records && set.name.contains(".")) {
            let instead = nearest?(set.pattern) ?? firstRow?(set.pattern).flatMap { shape(of: $0, for: set) }
            warn("\(source): \(described(set)) matched nothing; \(instead ?? found)")
        }
    }

    /// What the rows of `set` hold instead of the fields it reads, with the remedy that fits them: a mirror whose
    /// rows are bare keys reads them with `post = "."`. Nil for a set that reads no field.
    func shape(of row: RowShape, for set: RowSet) -> String? {
        var fields = set.keyFields.map(\.description)
        if case .field(let path)? = set.value, !path.keys.isEmpty { fields.append(path.description) }
        guard !fields.isEmpty else { return nil }
        var text = row.described(reading: fields)
        if row.scalar != nil, row.kind != .null,
            let mirror = schema.declarations.mirrors.first(where: { $0.name == set.name }),
            let end = mirror.ends.keys.sorted().first
        {
            text += "; rows that are the key itself read it with \(end) = \".\""
        }
        return text
    }
}
