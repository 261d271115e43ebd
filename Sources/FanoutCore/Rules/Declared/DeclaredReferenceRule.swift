import FanoutJSON

/// A `[[references]]` declaration as a rule: each key at `at` names an existing record of `to`
/// (docs/layouts.md "Declaring your app's copies").
struct DeclaredReferenceRule: ReferenceRule {
    let declaration: ReferenceDeclaration
    let descriptor: RuleDescriptor

    init(_ declaration: ReferenceDeclaration) {
        self.declaration = declaration
        let noun = declaration.to.noun
        descriptor = RuleDescriptor(
            id: declaration.name, defaultSeverity: declaration.severity ?? .error,
            summary: "Every \(noun) that `\(declaration.at)` names exists.",
            explanation: """
                Declared in the schema ([[references]] \(declaration.name)): rows at `\(declaration.at)` name a \
                \(noun) (`\(declaration.to.written)`) by its key. Deleting a \(noun) rarely deletes what refers to \
                it, and a client may write a key that was never a \(noun); the app then shows a link to nothing. \
                \(declaration.deletable
                    ? "The schema marks the referring rows deletable: the fix deletes the row."
                    : "There is no mechanical fix: the right \(noun) is unknown (mark the rows deletable = true to have the fix delete them).")
                """,
            isMechanical: declaration.deletable)
    }

    func missingRequirement(in schema: Schema) -> String? {
        switch declaration.to {
        case .users: Requirement.users(schema)
        case .posts: Requirement.posts(schema)
        case .comments: schema.comments == nil ? "the schema has no comments relation ([comments] path)" : nil
        case .pattern: nil
        case .records(let name, _):
            schema.record(named: name) == nil ? "the schema has no \(name) records ([records.\(name)] path)" : nil
        }
    }

    func broken(in context: CheckContext) -> [BrokenReference] {
        let dataset = context.dataset, sets = dataset.rowSets, s = sets.rows(of: declaration.name)!
        let rows = dataset.declared[s], spec = sets.sets[s]
        let exists: (KeyID) -> Bool
        switch declaration.to {
        case .users: exists = { context.derived.user($0) != nil }
        case .posts: exists = { context.derived.post($0) != nil }
        case .comments:
            let ids = Set(dataset.comments.map(\.id))
            exists = { ids.contains($0) }
        case .pattern, .records:
            let t = sets.targets(of: declaration)!, targets = dataset.declared[t], key = sets.sets[t].a!
            var found = [Bool](repeating: false, count: dataset.keys.count)
            for row in 0..<targets.count where targets.key(row, key) != noKey {
                found[Int(targets.key(row, key))] = true
            }
            exists = { found[Int($0)] }
        }
        var broken: [BrokenReference] = []
        for row in 0..<rows.count {
            let key = rows.key(row, spec.a!)
            guard key != noKey, !exists(key) else { continue }
            let node = dataset.path(ofRow: row, in: s)
            broken.append(
                BrokenReference(
                    paths: [dataset.path(ofRow: row, in: s, field: spec.fieldPart)], key: dataset.key(key),
                    fix: declaration.deletable ? [PatchEntry(node, .null)] : []))
        }
        return broken
    }

    /// What holds the reference, in messages: its field (`boardid`), or the row for a reference by capture.
    private var holder: String {
        let field = declaration.at.rowAndField.field
        return field.keys.isEmpty ? "the row" : field.description
    }

    func message(_ reference: BrokenReference, in context: CheckContext) -> String {
        "\(holder) names \(declaration.to.noun) \(reference.key ?? ""), which does not exist"
    }

    func sql(_ q: SQLContext) -> String {
        let spec = q.rowSet(rowsOf: declaration.name)
        let path = spec.fieldPart.keys.isEmpty ? "d.path" : q.path("d.path", field: spec.fieldPart)
        let exists: String
        switch declaration.to {
        case .users: exists = q.userExists("d.a")
        case .posts: exists = q.postExists("d.a")
        case .comments: exists = "EXISTS (SELECT 1 FROM \(q.table("comments")) c WHERE c.id = d.a)"
        case .pattern(let pattern):
            exists =
                "EXISTS (SELECT 1 FROM \(q.table("declared")) t WHERE t.role = 'targets' AND t.name = \(q.text(pattern.description)) AND t.a = d.a)"
        case .records(let name, _):
            exists =
                "EXISTS (SELECT 1 FROM \(q.table("declared")) t WHERE t.role = 'records' AND t.name = \(q.text(name)) AND t.a = d.a)"
        }
        return q.with()
            + q.finding(
                paths: [path], expected: declaration.deletable ? "'null'" : nil, actual: q.json("d.a"),
                fix: declaration.deletable ? q.fix([("d.path", "'null'")]) : q.fix([]),
                message: [q.text("\(holder) names \(declaration.to.noun) "), "d.a", "', which does not exist'"]
            ) + "\nFROM \(q.declaredRows(spec)) d\nWHERE d.a IS NOT NULL AND NOT \(exists)"
    }
}
