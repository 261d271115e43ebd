import FanoutJSON

/// One entry of a Firebase multi-path update: set `path` to `value`; `null` deletes.
public struct PatchEntry: Sendable, Equatable {
    /// The database path, e.g. `posts/u1/-Kx/like_count`.
    public var path: String
    /// The new value.
    public var value: JSONValue

    /// A patch entry.
    public init(_ path: String, _ value: JSONValue) {
        self.path = path
        self.value = value
    }
}

/// One inconsistency found in an export.
public struct Finding: Sendable, Equatable {
    /// The rule id, e.g. `like-count-mismatch`.
    public var rule: String
    /// The severity after configuration.
    public var severity: Severity
    /// What is wrong, in words a person understands.
    public var message: String
    /// The database paths involved, the one to fix first.
    public var paths: [String]
    /// What the data should hold there (nil when not a single value).
    public var expected: JSONValue?
    /// What it holds (`null` when missing).
    public var actual: JSONValue?
    /// The mechanical fix as multi-path update entries, ordered by path (its UTF-8 bytes), as the JSON report's
    /// `fix` object orders its members, so that a report rendered from JSON (`fanout report`) lists them as
    /// `check` does; empty when no fix is mechanical.
    public var fix: [PatchEntry]
    /// Where the first path is in the export, once a report that shows it asked for it; nil before, and for
    /// exports without positions (a Parse `.zip`).
    public var location: SourceLocation?

    /// A finding.
    public init(
        rule: String, severity: Severity, message: String, paths: [String],
        expected: JSONValue? = nil, actual: JSONValue? = nil, fix: [PatchEntry] = [], location: SourceLocation? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.paths = paths
        self.expected = expected
        self.actual = actual
        self.fix =
            fix.count > 1
            ? fix.enumerated().sorted { a, b in
                a.element.path.utf8.elementsEqual(b.element.path.utf8)
                    ? a.offset < b.offset : a.element.path.utf8.lexicographicallyPrecedes(b.element.path.utf8)
            }.map(\.element)
            : fix
        self.location = location
    }
}
