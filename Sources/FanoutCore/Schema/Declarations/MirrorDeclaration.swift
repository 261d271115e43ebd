/// `[[mirrors]]`: a relation stored a second time (`user-posts/{poster}/{post}`, `user-comments/{user}/{id}`),
/// checked both ways against the relation it copies, which is the truth.
public struct MirrorDeclaration: Sendable, Equatable {
    /// The rule id.
    public var name: String
    /// The relation that is the truth.
    public var of: DeclaredRelation
    /// Where the copy is stored: it captures the relation's two ends (``DeclaredRelation/pair``), or reads
    /// them from fields of a row (``ends``) and captures the row's own key as `{id}`.
    public var at: PathPattern
    /// Ends read from fields of the row instead of the path, by end name (`user = "key"`).
    public var ends: [String: FieldPath]
    /// What the app stores at an entry: nil for the schema's edge value, or the name of an end whose key is
    /// stored (`posts/{post}: "<post key>"`).
    public var value: String?
    /// For a mirror of records, the end that groups them (`forum` in `forums/{forum}/threads/{thread}`) and the
    /// records' key end: the pair each entry stores.
    public var recordPair: [String] = []
    /// The severity unless configured otherwise; nil for the kind's default.
    public var severity: Severity?

    public init(
        name: String, of: DeclaredRelation, at: PathPattern, ends: [String: FieldPath] = [:], value: String? = nil,
        severity: Severity? = nil
    ) {
        self.name = name
        self.of = of
        self.at = at
        self.ends = ends
        self.value = value
        self.severity = severity
    }

    /// The two ends each entry names: the relation's pair, or for records ``recordPair``.
    public var pair: (String, String) {
        of.pair ?? (recordPair.first ?? "", recordPair.last ?? "")
    }
}
