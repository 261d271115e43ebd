import FanoutCore

/// The declarations of a schema file (docs/layouts.md "Declaring your app's copies"): `[[counters]]`, `[[mirrors]]`,
/// `[[copies]]` and `[[references]]`, each checked against the relations the file places.
extension SchemaFileParser {
    static let counterKeys = ["name", "at", "counts", "per", "self", "severity"]
    static let mirrorKeys = ["name", "of", "at", "user", "post", "poster", "target", "value", "severity"]
    static let copyKeys = ["name", "at", "of", "via", "truth", "severity"]
    static let referenceKeys = ["name", "at", "to", "deletable", "severity"]

    func declarations(from top: Entries, schema: Schema) throws(InputError) -> Declarations {
        var names = DeclarationNames(parser: self)
        return Declarations(
            counters: try counters(top, schema, &names), mirrors: try mirrors(top, schema, &names),
            copies: try copies(top, schema, &names),
            references: try references(top, schema, &names))
    }

    private func counters(_ top: Entries, _ schema: Schema, _ names: inout DeclarationNames) throws(InputError)
        -> [CounterDeclaration]
    {
        var found: [CounterDeclaration] = []
        for entries in try top.tables("counters", keys: Self.counterKeys) {
            let name = try names.name(entries)
            let at = try entries.requiredPattern(
                "at", "the pattern of the stored number, e.g. at = \"users/{poster}/postCount\"")
            let counts = try relation(entries, "counts", among: DeclaredRelation.builtIn + Self.records(of: schema))
            let per = try entries.string("per")
            if let per {
                let ends = Self.groups(of: counts, in: schema)
                guard ends.contains(per) else {
                    throw fail(
                        entries.path + ["per"],
                        ends.isEmpty
                            ? "\(counts.rawValue) are counted over the whole export; leave per out, or name a field to group them by in [\(counts.rawValue)] fields"
                            : "\"\(per)\" is not an end of \(counts.rawValue)\(Suggestion.didYouMean(per, among: ends)); per takes \(ends.joined(separator: ", "))"
                    )
                }
                guard at.captureNames.contains(per) else {
                    throw fail(
                        entries.path + ["at"],
                        "\"\(at)\" does not capture {\(per)}, the \(per) whose \(counts.rawValue) it counts (per = \"\(per)\")"
                    )
                }
            } else if let captured = at.captureNames.first {
                throw fail(
                    entries.path + ["at"],
                    "\"\(at)\" captures {\(captured)} but the counter has no per; name the end it counts by "
                        + "(per = \"\(captured)\") or, for a counter of the whole export, capture nothing")
            }
            var counter = CounterDeclaration(
                name: name, at: at, counts: counts, per: per, severity: try entries.severity("severity"))
            if let selfEdges = try entries.string("self") {
                guard counts == .follows else {
                    throw fail(
                        entries.path + ["self"],
                        "only a counter of follows has self-edges (a user following themself); leave self out")
                }
                guard selfEdges == "counted" || selfEdges == "excluded" else {
                    throw fail(
                        entries.path + ["self"],
                        "\"\(selfEdges)\" is not a choice; self takes counted (the app counts a user's follow of "
                            + "themself) or excluded (the default)")
                }
                counter.countsSelf = selfEdges == "counted"
            }
            found.append(counter)
        }

        return found
    }

    private func mirrors(_ top: Entries, _ schema: Schema, _ names: inout DeclarationNames) throws(InputError)
        -> [MirrorDeclaration]
    {
        var found: [MirrorDeclaration] = []
        for entries in try top.tables("mirrors", keys: Self.mirrorKeys) {
            let name = try names.name(entries)
            let of = try relation(
                entries, "of", among: [.posts, .likes, .follows, .comments, .flags] + Self.records(of: schema))
            let at = try entries.requiredPattern(
                "at", "the pattern of the copy, e.g. at = \"user-posts/{poster}/{post}\"")
            let recordPair = try recordPair(of, at: at, entries, schema)
            let (first, second) = of.pair ?? (recordPair[0], recordPair[1])
            var ends: [String: FieldPath] = [:]
            for key in ["user", "post", "poster", "target"] {
                guard let field = try entries.field(key) else { continue }
                guard key == first || key == second else {
                    throw fail(
                        entries.path + [key],
                        "\(of.rawValue) have no end \(key); a mirror of \(of.rawValue) names \(first) and \(second)")
                }
                ends[key] = field
            }
            var mirror = MirrorDeclaration(
                name: name, of: of, at: at, ends: ends, severity: try entries.severity("severity"))
            mirror.recordPair = recordPair
            for end in [first, second] where mirror.endSource(end) == nil {
                throw fail(
                    entries.path + ["at"],
                    "\"\(at)\" does not capture {\(end)}; capture it, or read it from a field of the row "
                        + "(\(end) = \"…\", or \(end) = \".\" for rows that are the key itself, as in "
                        + "users/{uid}/posts/{id}: \"<post key>\") and capture the row's key as {id}")
            }
            if ends[first] != nil && ends[second] != nil && !at.captureNames.contains("id") {
                throw fail(
                    entries.path + ["at"],
                    "\"\(at)\" must capture {id}, the key of each row, since both ends are fields")
            }
            if let value = try entries.string("value") {
                guard value == first || value == second else {
                    throw fail(
                        entries.path + ["value"],
                        "\"\(value)\" is not an end of the mirror; value names the end whose key each "
                            + "entry stores (\(first) or \(second)), or is left out for the schema's edge value")
                }
                mirror.value = value
            }
            found.append(mirror)
        }

        return found
    }

    private func copies(_ top: Entries, _ schema: Schema, _ names: inout DeclarationNames) throws(InputError)
        -> [CopyDeclaration]
    {
        var found: [CopyDeclaration] = []
        for entries in try top.tables("copies", keys: Self.copyKeys) {
            let name = try names.name(entries)
            let at = try entries.requiredPattern(
                "at", "the pattern of the copied field, e.g. at = \"timeline/{user}/{id}/text\"")
            let ofText = try entries.requiredString("of", "the field it copies, e.g. of = \"posts.caption\"")
            let parts = ofText.split(separator: ".", maxSplits: 1).map(String.init)
            let copyable: [DeclaredRelation] = [.users, .posts, .comments] + Self.records(of: schema)
            guard parts.count == 2, let of = DeclaredRelation(rawValue: parts[0]), copyable.contains(of) else {
                throw fail(
                    entries.path + ["of"],
                    "\"\(ofText)\" is not a field of a record; of takes relation.field with relation one of "
                        + "\(copyable.map(\.rawValue).joined(separator: ", ")), e.g. \"posts.caption\" or \"users.username\""
                )
            }
            guard let record = CopiedRecord(of, in: schema) else {
                throw fail(
                    entries.path + ["of"],
                    "\"\(ofText)\" names \(of.rawValue), which the schema does not place ([\(Self.table(of))] path)")
            }
            guard record.fields[parts[1]] != nil else {
                let known = record.fields.keys.sorted()
                throw fail(
                    entries.path + ["of"],
                    "\(of.rawValue) have no field \"\(parts[1])\"\(Suggestion.didYouMean(parts[1], among: known)); "
                        + "\(of.rawValue).… takes \(known.joined(separator: ", ")) (name other fields in [\(Self.table(of))] fields = { name = \"path\" })"
                )
            }
            let viaText = try entries.requiredString(
                "via", "the capture or field of the row naming the copied record, e.g. via = \"tweetKey\"")
            let row = at.rowAndField.row
            let via: KeySource
            if viaText.hasPrefix("{") || viaText.hasSuffix("}") {
                let capture = String(viaText.dropFirst().dropLast())
                guard viaText.hasPrefix("{"), viaText.hasSuffix("}"), row.captureNames.contains(capture) else {
                    throw fail(
                        entries.path + ["via"],
                        "\"\(viaText)\" names nothing: \"\(row)\" captures "
                            + (row.captureNames.isEmpty
                                ? "nothing" : row.captureNames.map { "{\($0)}" }.joined(separator: ", ")))
                }
                via = .capture(capture)
            } else if row.captureNames.contains(viaText) {
                via = .capture(viaText)
            } else {
                guard !viaText.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
                    throw fail(
                        entries.path + ["via"],
                        "\"\(viaText)\" names nothing: give a capture of the row (\(row.captureNames.map { "{\($0)}" }.joined(separator: ", "))) or a field of it"
                    )
                }
                via = .field(FieldPath(viaText))
            }
            var copy = CopyDeclaration(
                name: name, at: at, of: of, field: parts[1], via: via, severity: try entries.severity("severity"))
            if let truth = try entries.string("truth") {
                guard truth == "original" || truth == "copy" else {
                    throw fail(
                        entries.path + ["truth"],
                        "\"\(truth)\" is not a choice; truth takes original (the record's field, the default) or "
                            + "copy (the field at at, which the app writes first)"
                            + Suggestion.didYouMean(truth, among: ["original", "copy"]))
                }
                copy.copyIsTruth = truth == "copy"
            }
            found.append(copy)
        }

        return found
    }

    private func references(_ top: Entries, _ schema: Schema, _ names: inout DeclarationNames) throws(InputError)
        -> [ReferenceDeclaration]
    {
        var found: [ReferenceDeclaration] = []
        for entries in try top.tables("references", keys: Self.referenceKeys) {
            let name = try names.name(entries)
            let at = try entries.requiredPattern(
                "at", "the field or capture holding the key, e.g. at = \"pins/{id}/boardid\"")
            let toText = try entries.requiredString(
                "to", "what it names: users, posts, comments, records or a pattern such as \"boards/{board}\"")
            guard let to = ReferenceDeclaration.Target(written: toText, in: schema) else {
                let records = schema.records.map(\.name)
                throw fail(
                    entries.path + ["to"],
                    "\"\(toText)\" is not a target: users, posts, comments, "
                        + (records.isEmpty ? "" : records.joined(separator: ", ") + ", ")
                        + "or a pattern capturing the records' key, e.g. \"boards/{board}\""
                        + Suggestion.didYouMean(toText, among: ["users", "posts", "comments"] + records))
            }
            if at.rowAndField.field.keys.isEmpty, !at.captureNames.contains(to.keyName) {
                throw fail(
                    entries.path + ["at"],
                    "\"\(at)\" names no \(to.noun): end it with the field holding the key "
                        + "(\"…/{id}/\(to.noun)Id\") or capture {\(to.keyName)}")
            }
            found.append(
                ReferenceDeclaration(
                    name: name, at: at, to: to, deletable: try entries.bool("deletable") ?? false,
                    severity: try entries.severity("severity")))
        }
        return found
    }

    /// The table that places `relation` in a schema file: `posts`, `records.threads`.
    static func table(_ relation: DeclaredRelation) -> String {
        relation.recordsName.map { "records.\($0)" } ?? relation.rawValue
    }

    /// The collections of `[records.NAME]`, as relations declarations name.
    static func records(of schema: Schema) -> [DeclaredRelation] { schema.records.map { .records($0.name) } }

    /// What a counter of `relation` may group by (`per`): the ends of a built-in relation's facts and the fields of
    /// its records, or a collection's other captures and fields.
    static func groups(of relation: DeclaredRelation, in schema: Schema) -> [String] {
        if let name = relation.recordsName { return schema.record(named: name)?.groupNames ?? [] }
        let ends = relation == .users ? [] : relation.ends.filter { $0 != "id" }
        let fields = CopiedRecord(relation, in: schema).map { record in
            record.fields.keys.filter { $0 != "key" && !ends.contains($0) && !relation.ends.contains($0) }.sorted()
        }
        return ends + (fields ?? [])
    }

    /// The pair a mirror of records stores (the end that groups them, then their key), read from the captures
    /// of `at`; empty for a built-in relation.
    private func recordPair(_ of: DeclaredRelation, at: PathPattern, _ entries: Entries, _ schema: Schema)
        throws(InputError) -> [String]
    {
        guard let name = of.recordsName, let record = schema.record(named: name) else { return [] }
        let groups = at.captureNames.filter { record.groupNames.contains($0) }
        guard at.captureNames.contains(record.keyName), groups.count == 1 else {
            throw fail(
                entries.path + ["at"],
                "\"\(at)\" must capture {\(record.keyName)}, the key of each of the \(name), and one end they are "
                    + "grouped by: "
                    + (record.groupNames.isEmpty
                        ? "name one in [records.\(name)] fields"
                        : record.groupNames.map { "{\($0)}" }.joined(separator: ", ")))
        }
        return [groups[0], record.keyName]
    }

    /// A relation name under `key`, one of `allowed`.
    private func relation(_ entries: Entries, _ key: String, among allowed: [DeclaredRelation]) throws(InputError)
        -> DeclaredRelation
    {
        let names = allowed.map(\.rawValue)
        let text = try entries.requiredString(key, "the relation, one of \(names.joined(separator: ", "))")
        if let relation = DeclaredRelation(rawValue: text), allowed.contains(relation) { return relation }
        let hint =
            text == "following" || text == "followers"
            ? " (follows are counted with per = \"user\", how many each user follows, or per = \"target\", how many follow each user)"
            : Suggestion.didYouMean(text, among: names)
        throw fail(
            entries.path + [key], "\"\(text)\" is not a relation\(hint); \(key) takes \(names.joined(separator: ", "))")
    }
}

/// The names of a schema file's declarations: rule ids, each used once and none a built-in rule's.
struct DeclarationNames {
    let parser: SchemaFileParser
    private var seen: [String: [String]] = [:]

    init(parser: SchemaFileParser) { self.parser = parser }

    /// The `name` of the declaration `entries`, checked.
    mutating func name(_ entries: Entries) throws(InputError) -> String {
        let name = try entries.requiredString("name", "the declaration's rule id, e.g. name = \"tweet-count\"")
        let at = entries.path + ["name"]
        let isIDCharacter = { (c: Unicode.Scalar) in c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c))
        }
        guard let first = name.unicodeScalars.first, isIDCharacter(first),
            name.unicodeScalars.allSatisfy({ isIDCharacter($0) || "-_.".unicodeScalars.contains($0) })
        else {
            throw parser.fail(
                at, "\"\(name)\" is not a rule id: letters, digits, - _ and ., starting with a letter or digit")
        }
        if RuleCatalog.descriptor(name) != nil {
            throw parser.fail(at, "\"\(name)\" is the id of a built-in rule; give the declaration a name of its own")
        }
        if let other = seen[name] {
            throw parser.fail(
                at,
                "\"\(name)\" is already the name of \(TOMLSourceMap.text(of: other)); each declaration needs a name of its own"
            )
        }
        seen[name] = entries.path
        return name
    }
}
