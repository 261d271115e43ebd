import FanoutJSON

/// A `[[copies]]` declaration as a rule: each copy at `at` equals the field it copies of the record its `via` names
/// (docs/layouts.md "Declaring your app's copies").
struct DeclaredCopyRule: CopyRule {
    let declaration: CopyDeclaration
    let descriptor: RuleDescriptor

    init(_ declaration: CopyDeclaration) {
        self.declaration = declaration
        let of = "\(declaration.of.rawValue).\(declaration.field)", record = declaration.of.noun
        let sides =
            declaration.copyIsTruth
            ? Self.copyTruth(record, declaration.field) : Self.originalTruth(record, declaration.field)
        descriptor = RuleDescriptor(
            id: declaration.name, defaultSeverity: declaration.severity ?? .warning,
            summary:
                "`\(declaration.at)` equals the \(declaration.field) of the \(record) that `\(declaration.via)` names.",
            explanation: """
                Declared in the schema ([[copies]] \(declaration.name)): the app copies \(of) into \
                `\(declaration.at)`, so that a page can show it without reading the \(record). \
                \(sides) \
                A copy whose \(record) does not exist is not checked (declare a reference for that).
                """)
    }

    var copyIsTruth: Bool { declaration.copyIsTruth }

    /// What the explanation says of the sides when the record is the truth (the default).
    private static func originalTruth(_ record: String, _ field: String) -> String {
        """
        Changing the \(record) updates the \(record) but rarely every copy, so copies keep the old value, or a copy \
        written half way lacks it. The \(record) is the source of truth: the fix writes its \(field) into the copy. \
        A copy of a field the \(record) does not have gets no fix: it is the only place the value exists.
        """
    }

    /// What the explanation says of the sides when the copy is the truth (`truth = "copy"`).
    private static func copyTruth(_ record: String, _ field: String) -> String {
        """
        The schema names the copy as the truth (truth = "copy"): the app writes it first and copies it into the \
        \(record), so a \(record) whose \(field) differs missed an update. The fix writes the copy's value into \
        the \(record); when the copy has no value, or copies of one \(record) disagree, there is no fix, as either \
        side may be the one to keep.
        """
    }

    func missingRequirement(in schema: Schema) -> String? {
        CopiedRecord(declaration.of, in: schema) == nil
            ? "the schema has no \(declaration.of.rawValue) relation (\(declaration.of.schemaKey))" : nil
    }

    /// The copies whose record exists (the subject is the copy's row, the original's its record's row).
    func eachReading(in context: CheckContext, _ body: (CopyReading) -> Void) {
        let dataset = context.dataset, sets = dataset.rowSets
        guard let s = sets.rows(of: declaration.name), let o = sets.originals(of: declaration),
            dataset.declared[s].count > 0
        else { return }
        let rows = dataset.declared[s], spec = sets.sets[s], originals = dataset.declared[o],
            originalSpec = sets.sets[o]
        // The last record stored under a key is the record, as for users and posts.
        var original = [Int32](repeating: -1, count: dataset.keys.count)
        for row in 0..<originals.count {
            let key = originals.key(row, originalSpec.a!)
            if key != noKey { original[Int(key)] = Int32(row) }
        }
        for row in 0..<rows.count {
            let key = rows.key(row, spec.a!)
            guard key != noKey, original[Int(key)] >= 0 else { continue }
            let from = Int(original[Int(key)])
            let value: StoredValue
            switch originalSpec.value! {
            case .field: value = originals.values[from]
            case .key(let i):
                value = originals.key(from, i) == noKey ? .missing : .string(dataset.key(originals.key(from, i)))
            }
            body(CopyReading(subject: row, originalSubject: from, copy: rows.values[row], original: value, record: key))
        }
    }

    func paths(of reading: CopyReading, in context: CheckContext) -> [String] {
        let dataset = context.dataset, sets = dataset.rowSets
        let s = sets.rows(of: declaration.name)!, o = sets.originals(of: declaration)!
        let originalPath: String
        if case .field(let path) = sets.sets[o].value! {
            originalPath = dataset.path(ofRow: reading.originalSubject, in: o, field: path)
        } else {
            originalPath = dataset.path(ofRow: reading.originalSubject, in: o)
        }
        return [dataset.path(ofRow: reading.subject, in: s, field: sets.sets[s].fieldPart), originalPath]
    }

    /// The value each record holds at the copied field (JSON null for none), by the record's key; nil when there is
    /// no such record or its value cannot be copied (an object): what a new row's copy is written with.
    func originals(in context: CheckContext) -> (KeyID) -> JSONValue? {
        let dataset = context.dataset, sets = dataset.rowSets
        guard let o = sets.originals(of: declaration) else { return { _ in nil } }
        let originals = dataset.declared[o], spec = sets.sets[o]
        var last = [Int32](repeating: -1, count: dataset.keys.count)
        for row in 0..<originals.count where originals.key(row, spec.a!) != noKey {
            last[Int(originals.key(row, spec.a!))] = Int32(row)
        }
        return { key in
            guard key != noKey, last[Int(key)] >= 0 else { return nil }
            let row = Int(last[Int(key)])
            switch spec.value! {
            case .field:
                switch originals.values[row] {
                case .object, .array: return nil
                case let value: return value.json ?? .null
                }
            case .key(let i):
                return originals.key(row, i) == noKey ? .null : .string(dataset.key(originals.key(row, i)))
            }
        }
    }

    /// "\"old\" is a stale copy of post -Kx's caption \"new\"", "the copy of post -Kx's caption (\"new\") is missing",
    /// "\"x\" copies user u1's name, which the user does not have".
    func message(_ reading: CopyReading, in context: CheckContext) -> String {
        let noun = declaration.of.noun, whose = "\(noun) \(context.dataset.key(reading.record))'s \(declaration.field)"
        if copyIsTruth {
            let disagree = reading.copiesDisagree ? "; its copies disagree, so there is no fix" : ""
            switch (reading.copy.comparable, reading.original.comparable) {
            case (nil, let original?): return "the copy of \(whose) (\(original)), the truth, is missing"
            case (let copy?, nil): return "\(whose) is missing; its copy, the truth, holds \(copy)\(disagree)"
            default:
                return "\(whose) \(reading.original.comparable ?? "") is stale; its copy, the truth, holds "
                    + "\(reading.copy.comparable ?? "")\(disagree)"
            }
        }
        switch (reading.copy.comparable, reading.original.comparable) {
        case (nil, let original?): return "the copy of \(whose) (\(original)) is missing"
        case (let copy?, nil): return "\(copy) copies \(whose), which the \(noun) does not have"
        default:
            return "\(reading.copy.comparable ?? "") is a stale copy of \(whose) \(reading.original.comparable ?? "")"
        }
    }

    func sql(_ q: SQLContext) -> String {
        let sets = RowSets(q.schema)
        let spec = sets.sets[sets.rows(of: declaration.name)!],
            originalSpec = sets.sets[sets.originals(of: declaration)!]
        let path = spec.fieldPart.keys.isEmpty ? "d.path" : q.path("d.path", field: spec.fieldPart)
        let originalPath: String
        if case .field(let field)? = originalSpec.value, !field.keys.isEmpty {
            originalPath = q.path("o.path", field: field)
        } else {
            originalPath = "o.path"
        }
        let present = { (v: String) in "CASE WHEN \(v) = 'null' THEN NULL ELSE \(v) END" }
        let copy = present("d.value"), original = present("o.value")
        let noun = declaration.of.noun
        let whose = q.text("\(noun) ") + " || d.a || " + q.text("'s \(declaration.field)")
        let originals = """
            originals AS (
              SELECT o.* FROM \(q.table("declared")) o WHERE o.role = 'originals' AND o.name = \(q.text(originalSpec.name)) AND o.a IS NOT NULL
              QUALIFY row_number() OVER (PARTITION BY o.a ORDER BY o.seq DESC) = 1
            )
            """
        let rows = "\nFROM \(q.declaredRows(spec)) d JOIN originals o ON o.a = d.a"
        let differing = "\nWHERE d.a IS NOT NULL AND \(copy) IS DISTINCT FROM \(original)"
        let unwritable = { (v: String) in "\(v) IS NULL OR \(v) IN ('{…}', '[…]')" }
        guard declaration.copyIsTruth else {
            let message =
                "CASE WHEN \(copy) IS NULL THEN 'the copy of ' || \(whose) || ' (' || \(original) || ') is missing' "
                + "WHEN \(original) IS NULL THEN \(copy) || ' copies ' || \(whose) || \(q.text(", which the \(noun) does not have")) "
                + "ELSE \(copy) || ' is a stale copy of ' || \(whose) || ' ' || \(original) END"
            let fix = "CASE WHEN \(unwritable(original)) THEN \(q.fix([])) ELSE \(q.fix([(path, original)])) END"
            return q.with(originals)
                + q.finding(
                    paths: [path, originalPath], expected: "coalesce(\(original), 'null')",
                    actual: "coalesce(\(copy), 'null')", fix: fix, message: [message]) + rows + differing
        }
        // The copy is the truth: each record's present copies, whose lowest and highest value differ when they
        // disagree.
        let copies = """
            copies AS (
              SELECT c.a, min(c.value) AS low, max(c.value) AS high FROM \(q.declaredRows(spec)) c
              WHERE c.a IS NOT NULL AND c.value IS NOT NULL AND c.value <> 'null' GROUP BY c.a
            )
            """
        let disagree = "CASE WHEN k.low <> k.high THEN '; its copies disagree, so there is no fix' ELSE '' END"
        let message =
            "CASE WHEN \(copy) IS NULL THEN 'the copy of ' || \(whose) || ' (' || \(original) || '), the truth, is missing' "
            + "WHEN \(original) IS NULL THEN \(whose) || ' is missing; its copy, the truth, holds ' || \(copy) || \(disagree) "
            + "ELSE \(whose) || ' ' || \(original) || ' is stale; its copy, the truth, holds ' || \(copy) || \(disagree) END"
        let fix =
            "CASE WHEN \(unwritable(copy)) OR k.low <> k.high THEN \(q.fix([])) ELSE \(q.fix([(originalPath, copy)])) END"
        return q.with(originals, copies)
            + q.finding(
                paths: [originalPath, path], expected: "coalesce(\(copy), 'null')",
                actual: "coalesce(\(original), 'null')", fix: fix, message: [message])
            + rows + " LEFT JOIN copies k ON k.a = d.a" + differing
    }
}
