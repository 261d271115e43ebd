/// Rows the walker reads for the declarations: at a pattern, each row keeps the keys its path captures and the
/// keys its fields name, and may keep one value (a counter's number, a copy's text).
///
/// Every declaration reads its own rows (``Role/rows``); a copy also reads the values it copies
/// (``Role/originals``, one set per copied field, shared by the copies of that field), and a reference to a
/// pattern the records it may name (``Role/targets``). Rows are facts like any other: the core keeps them, `fanout
/// tables` writes them to the `declared` table.
public struct RowSet: Sendable, Equatable {
    /// What the rows are for.
    public enum Role: String, Sendable, Equatable {
        /// The rows a declaration checks.
        case rows
        /// The values a copy copies, keyed by their record.
        case originals
        /// The records a reference may name.
        case targets
        /// The records of a collection that counters count and mirrors copy, keyed (`a`) and grouped (`b`).
        case records
    }

    /// The name of the records of `relation` grouped by `group`: `threads`, `threads.forum`.
    static func recordsName(_ relation: DeclaredRelation, by group: String?) -> String {
        relation.rawValue + (group.map { ".\($0)" } ?? "")
    }

    /// Where a row's value comes from.
    public enum Value: Sendable, Equatable {
        /// A field of the row (empty: the row's own value), kept as the JSON scalar it is.
        case field(FieldPath)
        /// The text of one of the row's keys (index into its keys), as a JSON string: a copy of a record's key.
        case key(Int)
    }

    /// The set's name in the `declared` table: the declaration's name, `relation.field` for originals, the
    /// pattern for targets.
    public let name: String
    public let role: Role
    /// The pattern of a row's node.
    public let pattern: PathPattern
    /// Key-valued fields of the row, read after the pattern's captures: a row's keys are its captures in order,
    /// then these.
    public let keyFields: [FieldPath]
    /// The row's value, if it keeps one.
    public let value: Value?
    /// The field inside the row that findings name (a counter's number, a copy), empty for the row itself.
    public let fieldPart: FieldPath
    /// The indexes among the keys of the row's ends, `a` and `b` in the `declared` table (a counter's group, a
    /// mirror's pair, a copy's original, a reference's record).
    public let a: Int?, b: Int?

    /// How many keys each row keeps.
    public var keyCount: Int { pattern.captureNames.count + keyFields.count }

    /// The index among a row's keys of `source`, if the row keeps it.
    func index(of source: KeySource) -> Int? {
        switch source {
        case .capture(let name): pattern.captureNames.firstIndex(of: name)
        case .field(let path): keyFields.firstIndex(of: path).map { pattern.captureNames.count + $0 }
        }
    }
}

extension PathPattern {
    /// The pattern split where a row ends: through its last capture, the rest being a field of the row
    /// (`timeline/{user}/{id}` and `text` for `timeline/{user}/{id}/text`). A pattern that captures nothing, or
    /// ends with a capture, is a row of its own whose value is the node's.
    public var rowAndField: (row: PathPattern, field: FieldPath) {
        guard let last = segments.lastIndex(where: { if case .capture = $0 { true } else { false } }),
            last < segments.count - 1
        else { return (self, FieldPath("")) }
        let field = segments[(last + 1)...].map { if case .literal(let text) = $0 { text } else { "" } }
        return (PathPattern(segments: Array(segments[...last])), FieldPath(field.joined(separator: "/")))
    }

    /// A pattern of `segments`.
    package init(segments: [Segment]) { self.segments = segments }
}
