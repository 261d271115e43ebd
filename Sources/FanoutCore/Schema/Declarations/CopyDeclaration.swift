/// `[[copies]]`: a field that copies a field of another record, found through a key (a timeline row's `text`
/// copies its post's caption; a follow row's `name` copies the followed user's name).
public struct CopyDeclaration: Sendable, Equatable {
    /// The rule id.
    public var name: String
    /// The copy: the pattern of its row (through the last capture) and the field inside the row (empty for the
    /// row's own value).
    public var at: PathPattern
    /// The record whose field is copied.
    public var of: DeclaredRelation
    /// The copied field of that record, as the schema file names it (`caption`, `username`, or a name of the
    /// relation's `fields`).
    public var field: String
    /// Where the copied record's key is: a capture of ``at``, or a field of the row.
    public var via: KeySource
    /// The severity unless configured otherwise; nil for the kind's default.
    public var severity: Severity?
    /// Whether the copy at ``at`` is the truth (`truth = "copy"`): the app writes it first and copies it into the
    /// record, so a record that differs is what the fix changes.
    public var copyIsTruth = false

    public init(
        name: String, at: PathPattern, of: DeclaredRelation, field: String, via: KeySource, severity: Severity? = nil
    ) {
        self.name = name
        self.at = at
        self.of = of
        self.field = field
        self.via = via
        self.severity = severity
    }
}

/// Where a row names a key: a capture of its path, or a field of the row.
public enum KeySource: Sendable, Equatable, Hashable, CustomStringConvertible {
    case capture(String)
    case field(FieldPath)

    /// As a schema file writes it: `{target}` or `tweetKey`.
    public var description: String {
        switch self {
        case .capture(let name): "{\(name)}"
        case .field(let path): path.description
        }
    }
}
