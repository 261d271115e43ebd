/// `[[counters]]`: a stored number that counts a relation, per post, per user or over the whole export
/// (`users/{poster}/tweetCount`, `posts/{post}/commentCount`, `stats/usersCount`).
public struct CounterDeclaration: Sendable, Equatable {
    /// The rule id.
    public var name: String
    /// The pattern of the stored number; it captures `{per}` when the counter is per group.
    public var at: PathPattern
    /// What it counts.
    public var counts: DeclaredRelation
    /// The end that groups the facts (`poster`, `post`, `user`, `target`), or nil for a global counter.
    public var per: String?
    /// The severity unless configured otherwise; nil for the kind's default.
    public var severity: Severity?
    /// Whether a follows counter counts a user's follow of themself (`self = "counted"`), as apps whose counter is
    /// incremented on every follow do; by default it does not, as the repair deletes self-follows.
    public var countsSelf = false

    public init(name: String, at: PathPattern, counts: DeclaredRelation, per: String?, severity: Severity? = nil) {
        self.name = name
        self.at = at
        self.counts = counts
        self.per = per
        self.severity = severity
    }

    /// Whether the counter counts records read as rows of their own (``DeclaredRelation/countsAsRecords(per:)``).
    public var countsRecords: Bool { counts.countsAsRecords(per: per) }
}
